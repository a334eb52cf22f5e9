import "server-only";
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/db/schema";
import type { Db } from "@/db/types";
import { listActiveUsers } from "@/lib/users/queries";
import { dayRange, type SearchParams } from "@/lib/url/search-params";
import { listAuditEvents } from "./audit";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const filterSchema = z.object({
  action: z.enum(AUDIT_ACTIONS).optional().catch(undefined),
  actor: z.uuid().optional().catch(undefined),
  pull: z.uuid().optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type AuditPageFilter = z.output<typeof filterSchema>;

/** The audit trail page: one page of entries for the URL's filters (unreadable ones dropped), and who may be filtered on. */
export async function loadAuditPage(db: Db, params: SearchParams) {
  const filter = filterSchema.parse(params);
  const range = dayRange(filter.from, filter.to);
  const [{ rows, hasMore }, people] = await Promise.all([
    listAuditEvents(db, {
      action: filter.action,
      actorId: filter.actor,
      pullId: filter.pull,
      from: range.start ?? undefined,
      to: range.end ?? undefined,
      page: filter.page,
    }),
    listActiveUsers(db),
  ]);
  return { filter, rows, hasMore, people, actions: AUDIT_ACTIONS };
}

/** The address of another page of the trail, with the same filters. */
export function auditPageHref(filter: AuditPageFilter, page: number): string {
  const params = new URLSearchParams(Object.entries({ ...filter, page: String(page) }).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  return `/admin/audit?${params.toString()}`;
}
