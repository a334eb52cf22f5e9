import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import { decoded, readInBatches } from "@/lib/csv/cursor";
import { exportRequest, streamListCsv, type ExportRequest } from "@/lib/csv/stream-export";
import type { SearchParams } from "@/lib/url/search-params";
import { BASIS_WORDS, isoDay, type XDateBasis } from "./derive";
import { listColumns, windowOf, xdateListSql, type XDateListRow } from "./queries";
import { DEFAULT_RANGE, parseXDateQuery, type XDateQuery } from "./xdates-query";

export const xdateColumns: Array<CsvColumn<XDateListRow>> = [
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

export const xdateExportRequest = (searchParams: SearchParams): ExportRequest<XDateQuery> =>
  exportRequest(parseXDateQuery(searchParams));

/**
 * The X-date list as the viewer sees it with these filters, as a streamed CSV read from
 * `readDb`; the export's audit line goes to `auditDb` (the primary) when the file ends.
 */
export function streamXDatesCsv(
  readDb: Db,
  auditDb: Db,
  user: Actor,
  query: XDateQuery,
  today: string = isoDay(),
): ReadableStream<Uint8Array> {
  const range = query.range ?? DEFAULT_RANGE;
  const window = windowOf(today, range, query.day);
  const statement = xdateListSql(readDb, viewScope(user, "xdates:view"), query, window, MAX_EXPORT_ROWS);
  return streamListCsv<XDateListRow>(auditDb, user, {
    name: "xdates",
    filters: { ...query, range },
    columns: xdateColumns,
    read: (each) =>
      readInBatches(readDb, statement, (raw) => each(raw.map((row) => decoded<XDateListRow>(listColumns, row)))),
  });
}
