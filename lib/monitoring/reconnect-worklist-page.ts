import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { SessionUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { listReconnectWorklist, type ReconnectItem } from "./reconnect";
import { openReconnectPages, reconnectPageUrl } from "./reconnect-page";
import { configuredReconnectPageKey } from "./reconnect-page-key";

export type ReconnectWorklistItem = ReconnectItem & {
  /** The account's open Coverdesk page to send, if it has one. */ coverdeskPageUrl: string | null;
};

/** The Reconnect page: the accounts the user may see whose consumer must sign in again, each with its open Coverdesk page. */
export async function loadReconnectWorklistPage(db: Db, user: SessionUser): Promise<ReconnectWorklistItem[]> {
  const items = await listReconnectWorklist(db, viewScope(user));
  const appUrl = env().auth.url;
  const key = configuredReconnectPageKey();
  const pages = await openReconnectPages(
    db,
    items.map((i) => i.monitoringId),
  );
  return items.map((item) => {
    const pageId = pages.get(item.monitoringId);
    return { ...item, coverdeskPageUrl: pageId ? reconnectPageUrl(appUrl, key, pageId) : null };
  });
}
