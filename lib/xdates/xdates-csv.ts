import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { exportListCsv, MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import type { SearchParams } from "@/lib/url/search-params";
import { BASIS_WORDS, isoDay, type XDateBasis } from "./derive";
import { listXDates, windowOf, type XDateListRow } from "./queries";
import { DEFAULT_RANGE, parseXDateQuery } from "./xdates-query";

const columns: Array<CsvColumn<XDateListRow>> = [
  ["x-date", (r) => r.xDate],
  ["how derived", (r) => (r.basis ? (BASIS_WORDS[r.basis as XDateBasis] ?? r.basis) : null)],
  ["note", (r) => r.note],
  ["first name", (r) => r.firstName],
  ["last name", (r) => r.lastName],
  ["email", (r) => r.email],
  ["line", (r) => r.policyType],
  ["carrier", (r) => r.carrierLabel],
  ["policy number", (r) => r.carrierPolicyNumber],
  ["annual premium", (r) => (r.annualPremiumCents === null ? null : centsToDollars(r.annualPremiumCents))],
  ["expiry", (r) => r.expiryDate],
  ["term months", (r) => r.termMonths],
  ["stage", (r) => r.stage],
  ["assignee", (r) => r.assigneeName],
  ["link", (r) => r.publicAlias],
  ["pull id", (r) => r.pullId],
];

/** The X-date list as the viewer sees it with these filters, as CSV; each export goes on the audit trail. */
export async function exportXDatesCsv(
  db: Db,
  user: Actor,
  searchParams: SearchParams,
  today: string = isoDay(),
): Promise<string> {
  const { query } = parseXDateQuery(searchParams);
  const range = query.range ?? DEFAULT_RANGE;
  const rows = await listXDates(db, viewScope(user, "xdates:view"), query, windowOf(today, range, query.day), {
    limit: MAX_EXPORT_ROWS,
  });
  return exportListCsv(db, user, { name: "xdates", filters: { ...query, range }, columns, rows });
}
