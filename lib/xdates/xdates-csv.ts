import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { toCsv, type Cell } from "@/lib/csv/to-csv";
import { centsToDollars } from "@/lib/csv/to-csv";
import type { SearchParams } from "@/lib/url/search-params";
import { recordAudit } from "@/lib/audit/audit-log";
import { BASIS_WORDS, isoDay, type XDateBasis } from "./derive";
import { listXDates, windowOf } from "./queries";
import { DEFAULT_RANGE, parseXDateQuery } from "./xdates-query";

/** One file at most this long; a larger book is exported by narrowing the filters. */
const MAX_ROWS = 50_000;

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
    limit: MAX_ROWS,
  });
  const body = toCsv(
    [
      "x-date",
      "how derived",
      "note",
      "first name",
      "last name",
      "email",
      "line",
      "carrier",
      "policy number",
      "annual premium",
      "expiry",
      "term months",
      "stage",
      "assignee",
      "link",
      "pull id",
    ],
    rows.map((r): Cell[] => [
      r.xDate,
      r.basis ? (BASIS_WORDS[r.basis as XDateBasis] ?? r.basis) : null,
      r.note,
      r.firstName,
      r.lastName,
      r.email,
      r.policyType,
      r.carrierLabel,
      r.carrierPolicyNumber,
      r.annualPremiumCents === null ? null : centsToDollars(r.annualPremiumCents),
      r.expiryDate,
      r.termMonths,
      r.stage,
      r.assigneeName,
      r.publicAlias,
      r.pullId,
    ]),
  );
  // Personal data leaving the app: who took which slice of the book, and how much of it.
  await recordAudit(db, user, "CSV_EXPORTED", {
    details: { export: "xdates", filters: { ...query, range, page: undefined }, rows: rows.length },
  });
  return body;
}
