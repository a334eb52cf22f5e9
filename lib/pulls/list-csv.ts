import "server-only";
import type { SearchParams } from "@/lib/url/search-params";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { exportListCsv, MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import { parsePullListQuery } from "./list-query";
import { listPullRows, type PullListRow } from "./queries";

const columns: Array<CsvColumn<PullListRow>> = [
  ["first name", (r) => r.firstName],
  ["last name", (r) => r.lastName],
  ["email", (r) => r.email],
  ["provider", (r) => r.providerFriendlyName ?? r.providerName],
  ["lines", (r) => r.policyTypes.join(" + ")],
  ["total premium", (r) => (r.totalPremiumCents === null ? null : centsToDollars(r.totalPremiumCents))],
  ["next expiry", (r) => r.nextExpiryDate],
  ["status", (r) => r.status],
  ["stage", (r) => r.stage],
  ["assignee", (r) => r.assigneeName],
  ["linked", (r) => r.serviceCreatedAt?.toISOString() ?? null],
  ["pull id", (r) => r.pullId],
];

/** The pull list as the viewer sees it with these filters, as CSV; each export goes on the audit trail. */
export async function exportPullListCsv(db: Db, user: Actor, searchParams: SearchParams): Promise<string> {
  const { query } = parsePullListQuery(searchParams);
  const rows = await listPullRows(db, viewScope(user), { ...query, page: 1 }, MAX_EXPORT_ROWS);
  return exportListCsv(db, user, { name: "pulls", filters: query, columns, rows });
}
