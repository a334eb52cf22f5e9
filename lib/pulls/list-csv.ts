import "server-only";
import type { SearchParams } from "@/lib/url/search-params";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import { decoded, readInBatches } from "@/lib/csv/cursor";
import { exportRequest, streamListCsv, type ExportRequest } from "@/lib/csv/stream-export";
import { parsePullListQuery, type PullListQuery } from "./list-query";
import { pullListFields, pullListSql, type PullListRow } from "./queries";

export const pullListColumns: Array<CsvColumn<PullListRow>> = [
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

export const pullListExportRequest = (searchParams: SearchParams): ExportRequest<PullListQuery> =>
  exportRequest(parsePullListQuery(searchParams));

/**
 * The pull list as the viewer sees it with these filters, as a streamed CSV read from `readDb`;
 * the export's audit line goes to `auditDb` (the primary) when the file ends.
 */
export function streamPullListCsv(
  readDb: Db,
  auditDb: Db,
  user: Actor,
  query: PullListQuery,
): ReadableStream<Uint8Array> {
  const statement = pullListSql(readDb, viewScope(user), { ...query, page: 1 }, MAX_EXPORT_ROWS);
  return streamListCsv<PullListRow>(auditDb, user, {
    name: "pulls",
    filters: query,
    columns: pullListColumns,
    read: (each) =>
      readInBatches(readDb, statement, (raw) => each(raw.map((row) => decoded<PullListRow>(pullListFields, row)))),
  });
}
