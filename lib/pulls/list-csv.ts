import "server-only";
import type { SearchParams } from "@/lib/url/search-params";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { toCsv, type Cell } from "@/lib/csv/to-csv";
import { centsToDollars } from "@/lib/csv/to-csv";
import { recordAudit } from "@/lib/audit/audit-log";
import { parsePullListQuery } from "./list-query";
import { listPullRows } from "./queries";

/** One file at most this long; a larger book is exported by narrowing the filters. */
const MAX_ROWS = 50_000;

/** The pull list as the viewer sees it with these filters, as CSV; each export goes on the audit trail. */
export async function exportPullListCsv(db: Db, user: Actor, searchParams: SearchParams): Promise<string> {
  const { query } = parsePullListQuery(searchParams);
  const rows = await listPullRows(db, viewScope(user), { ...query, page: 1 }, MAX_ROWS);
  const body = toCsv(
    [
      "first name",
      "last name",
      "email",
      "provider",
      "lines",
      "total premium",
      "next expiry",
      "status",
      "stage",
      "assignee",
      "linked",
      "pull id",
    ],
    rows.map((r): Cell[] => [
      r.firstName,
      r.lastName,
      r.email,
      r.providerFriendlyName ?? r.providerName,
      r.policyTypes.join(" + "),
      r.totalPremiumCents === null ? null : centsToDollars(r.totalPremiumCents),
      r.nextExpiryDate,
      r.status,
      r.stage,
      r.assigneeName,
      r.serviceCreatedAt?.toISOString() ?? null,
      r.pullId,
    ]),
  );
  // Personal data leaving the app: who took which slice of the book, and how much of it.
  await recordAudit(db, user, "CSV_EXPORTED", {
    details: { export: "pulls", filters: { ...query, page: undefined }, rows: rows.length },
  });
  return body;
}
