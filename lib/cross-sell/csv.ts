import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import { readInBatches } from "@/lib/csv/cursor";
import { exportRequest, streamListCsv, type ExportRequest } from "@/lib/csv/stream-export";
import type { SearchParams } from "@/lib/url/search-params";
import { GAP_LABELS, type GapCode } from "./gaps";
import { crossSellRowOf, crossSellSql, type CrossSellRow } from "./queries";
import { parseCrossSellQuery, type CrossSellQuery } from "./list-query";

const gapWords = (codes: string[]) => codes.map((code) => GAP_LABELS[code as GapCode] ?? code).join("; ");
const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents));

export const crossSellColumns: Array<CsvColumn<CrossSellRow>> = [
  ["name", (r) => r.holderName || null],
  ["email", (r) => r.email],
  ["policies in force", (r) => r.policyCount],
  ["carriers", (r) => r.carrierCount],
  ["lines", (r) => r.lines.join("; ")],
  ["gaps", (r) => gapWords(r.gaps)],
  ["annual premium", (r) => dollars(r.annualPremiumCents)],
  ["premium in play", (r) => dollars(r.premiumInPlayCents)],
  ["stage", (r) => r.stage],
  ["assignee", (r) => r.assigneeName],
  ["pull id", (r) => r.pullId],
];

export const crossSellExportRequest = (searchParams: SearchParams): ExportRequest<CrossSellQuery> =>
  exportRequest(parseCrossSellQuery(searchParams));

/**
 * The cross-sell list as the viewer sees it with these filters, as a streamed CSV read from
 * `readDb`; the export's audit line goes to `auditDb` (the primary) when the file ends.
 */
export function streamCrossSellCsv(
  readDb: Db,
  auditDb: Db,
  user: Actor,
  query: CrossSellQuery,
): ReadableStream<Uint8Array> {
  const statement = crossSellSql(
    viewScope(user, "cross-sell:view"),
    { ...query, page: undefined },
    {
      limit: MAX_EXPORT_ROWS,
      offset: 0,
    },
  );
  return streamListCsv<CrossSellRow>(auditDb, user, {
    name: "cross-sell",
    filters: query,
    columns: crossSellColumns,
    read: (each) => readInBatches(readDb, statement, (raw) => each(raw.map(crossSellRowOf))),
  });
}
