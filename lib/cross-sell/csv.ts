import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { centsToDollars } from "@/lib/csv/to-csv";
import { exportListCsv, MAX_EXPORT_ROWS, type CsvColumn } from "@/lib/csv/list-export";
import type { SearchParams } from "@/lib/url/search-params";
import { GAP_LABELS, type GapCode } from "./gaps";
import { listCrossSell, type CrossSellRow } from "./queries";
import { parseCrossSellQuery } from "./list-query";

const gapWords = (codes: string[]) => codes.map((code) => GAP_LABELS[code as GapCode] ?? code).join("; ");
const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents));

const columns: Array<CsvColumn<CrossSellRow>> = [
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

/** The cross-sell list as the viewer sees it with these filters, as CSV; each export goes on the audit trail. */
export async function exportCrossSellCsv(db: Db, user: Actor, searchParams: SearchParams): Promise<string> {
  const { query } = parseCrossSellQuery(searchParams);
  const rows = await listCrossSell(db, viewScope(user, "cross-sell:view"), query, { limit: MAX_EXPORT_ROWS });
  return exportListCsv(db, user, { name: "cross-sell", filters: query, columns, rows });
}
