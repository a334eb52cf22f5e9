import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { can } from "@/lib/auth/permissions";
import type { SearchParams } from "@/lib/url/search-params";
import {
  INBOX_VIEWS,
  INBOX_WHOSE,
  listAlerts,
  type InboxRow,
  type InboxView,
  type InboxWhose,
} from "@/lib/alerts/inbox";

// Everything the alert inbox (app/(app)/alerts/page.tsx) shows, in one call: which tab and
// whose alerts the URL asks for (anything unreadable falls back to the defaults), and the rows.

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const querySchema = z.object({
  view: z.enum(INBOX_VIEWS).catch("open"),
  whose: z.enum(INBOX_WHOSE).catch("mine"),
});

export type AlertInboxPage = {
  view: InboxView;
  whose: InboxWhose;
  /** Whether "everyone" is offered (managers and admins). */
  mayViewAll: boolean;
  rows: InboxRow[];
};

export async function loadAlertInboxPage(db: Db, user: Actor, params: SearchParams): Promise<AlertInboxPage> {
  const mayViewAll = can(user, "alerts:view-all");
  const parsed = querySchema.parse({ view: first(params.view), whose: first(params.whose) });
  const whose = parsed.whose === "everyone" && !mayViewAll ? "mine" : parsed.whose;
  return { view: parsed.view, whose, mayViewAll, rows: await listAlerts(db, user, { view: parsed.view, whose }) };
}
