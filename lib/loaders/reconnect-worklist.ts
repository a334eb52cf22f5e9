import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { env } from "@/lib/env";
import { pageNumber } from "@/lib/url/page-number";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { listReconnectWorklist, RECONNECT_PAGE_SIZE, type ReconnectItem } from "@/lib/monitoring/reconnect";
import { openReconnectPages, reconnectPageUrl } from "@/lib/monitoring/reconnect-page";
import { configuredReconnectPageKey } from "@/lib/monitoring/reconnect-page-key";

export type ReconnectWorklistItem = ReconnectItem & {
  /** The account's open Coverdesk page to send, if it has one. */ coverdeskPageUrl: string | null;
};

const fields = { page: pageNumber() };

export type ReconnectWorklistPage = {
  items: ReconnectWorklistItem[];
  /** Accounts on the worklist in all, over every page. */
  total: number;
  page: number;
  pageCount: number;
  /** Parameters of the address that could not be read and were left out. */
  ignored: string[];
};

/** The Reconnect page: the accounts the user may see whose consumer must sign in again, a page at a time, each with its open Coverdesk page. */
export async function loadReconnectWorklistPage(
  db: Db,
  user: Actor,
  searchParams: SearchParams = {},
): Promise<ReconnectWorklistPage> {
  const { values, ignored } = parseSearchFields(fields, searchParams);
  const page = values.page ?? 1;
  const { items, total } = await listReconnectWorklist(db, viewScope(user), page);
  const appUrl = env().auth.url;
  const key = configuredReconnectPageKey();
  const pages = await openReconnectPages(
    db,
    items.map((i) => i.monitoringId),
  );
  return {
    items: items.map((item) => {
      const pageId = pages.get(item.monitoringId);
      return { ...item, coverdeskPageUrl: pageId ? reconnectPageUrl(appUrl, key, pageId) : null };
    }),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / RECONNECT_PAGE_SIZE)),
    ignored,
  };
}
