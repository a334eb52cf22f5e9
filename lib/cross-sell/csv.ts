import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { toCsv, type Cell } from "@/lib/csv/to-csv";
import { centsToDollars } from "@/lib/csv/to-csv";
import type { SearchParams } from "@/lib/url/search-params";
import { recordAudit } from "@/lib/audit/audit-log";
import { GAP_LABELS, type GapCode } from "./gaps";
import { listCrossSell } from "./queries";
import { parseCrossSellQuery } from "./list-query";

/** One file at most this long; a larger book is exported by narrowing the filters. */
const MAX_ROWS = 50_000;

const gapWords = (codes: string[]) => codes.map((code) => GAP_LABELS[code as GapCode] ?? code).join("; ");

/** The cross-sell list as the viewer sees it with these filters, as CSV; each export goes on the audit trail. */
export async function exportCrossSellCsv(db: Db, user: Actor, searchParams: SearchParams): Promise<string> {
  const { query } = parseCrossSellQuery(searchParams);
  const rows = await listCrossSell(db, viewScope(user, "cross-sell:view"), query, { limit: MAX_ROWS });
  const body = toCsv(
    [
      "name",
      "email",
      "policies in force",
      "carriers",
      "lines",
      "gaps",
      "annual premium",
      "premium in play",
      "stage",
      "assignee",
      "pull id",
    ],
    rows.map((r): Cell[] => [
      r.holderName || null,
      r.email,
      r.policyCount,
      r.carrierCount,
      r.lines.join("; "),
      gapWords(r.gaps),
      r.annualPremiumCents === null ? null : centsToDollars(r.annualPremiumCents),
      r.premiumInPlayCents === null ? null : centsToDollars(r.premiumInPlayCents),
      r.stage,
      r.assigneeName,
      r.pullId,
    ]),
  );
  // Personal data leaving the app: who took which slice of the book, and how much of it.
  await recordAudit(db, user, "CSV_EXPORTED", {
    details: { export: "cross-sell", filters: { ...query, page: undefined }, rows: rows.length },
  });
  return body;
}
