import "server-only";
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/db/schema";
import type { Db } from "@/db/types";
import { listActiveUsers } from "@/lib/users/queries";
import { pageNumber } from "@/lib/url/page-number";
import { dayRange, parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { listAuditEvents } from "@/lib/audit/audit-log";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const filterFields = {
  action: z.enum(AUDIT_ACTIONS),
  actor: z.uuid(),
  pull: z.uuid(),
  from: day,
  to: day,
  page: pageNumber(),
} as const;
export type AuditPageFilter = ReturnType<typeof parseAuditFilter>;

function parseAuditFilter(params: SearchParams) {
  const { values } = parseSearchFields(filterFields, params);
  return { ...values, page: values.page ?? 1 };
}

/** The audit trail page: one page of entries for the URL's filters (unreadable ones dropped), and who may be filtered on. */
export async function loadAuditPage(db: Db, params: SearchParams) {
  const filter = parseAuditFilter(params);
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
  const params = new URLSearchParams(
    Object.entries({ ...filter, page: String(page) }).filter(
      (e): e is [string, string] => typeof e[1] === "string" && e[1] !== "",
    ),
  );
  return `/admin/audit?${params.toString()}`;
}
