import "server-only";
import type { Db } from "@/db/types";
import type { RedisclosureRow } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { getIncidentScope, type IncidentScopeInput } from "@/lib/audit/incident-scope";
import { listRedisclosures } from "@/lib/audit/redisclosure";
import { toCsv } from "./to-csv";

// The files an incident or an audit of the DPPA asks for: the incident-scope report and the
// redisclosure log as CSV, each download itself on the audit trail.

/** The filters as the audit trail keeps them: ids, the address and the window, nothing about a consumer. */
const filtersOf = (input: IncidentScopeInput) => ({
  user: input.user ?? null,
  session: input.session ?? null,
  ip: input.ip ?? null,
  from: input.start.toISOString(),
  to: input.end.toISOString(),
});

/**
 * The report as CSV: the counts by state first (the notice's figures), then one line per
 * consumer and what was done. Its download is itself on the audit trail, with the pulls it names.
 */
export async function exportIncidentScopeCsv(db: Db, actor: Actor, input: IncidentScopeInput): Promise<string> {
  const scope = await getIncidentScope(db, input);
  const body = toCsv(
    ["section", "state", "consumers", "pull id", "name", "what was done", "first", "last", "times"],
    [
      ...scope.states.map((s) => ["by state", s.state ?? "unknown", s.consumers, null, null, null, null, null, null]),
      ...scope.consumers.map((c) => [
        "consumer",
        c.state ?? "unknown",
        null,
        c.pullId,
        c.name,
        c.access,
        c.firstAt.toISOString(),
        c.lastAt.toISOString(),
        c.count,
      ]),
    ],
  );
  await recordAudit(db, actor, "CSV_EXPORTED", {
    pullIds: [...new Set(scope.consumers.map((c) => c.pullId))],
    details: { export: "incident-scope", filters: filtersOf(input), rows: scope.consumers.length },
  });
  return body;
}

/** The log as CSV, one line a disclosure (a bulk export's pulls joined by spaces). */
export function redisclosuresCsv(rows: RedisclosureRow[]): string {
  return toCsv(
    ["at", "pull ids", "pulls", "data", "channel", "recipient", "purpose", "by"],
    rows.map((row) => [
      row.at.toISOString(),
      row.pullIds.join(" "),
      row.pullCount,
      row.dataKinds.join("; "),
      row.channel,
      row.recipient,
      row.purpose,
      row.actorName,
    ]),
  );
}

/** The most lines one download of the log holds: five years of an agency's driver-data disclosures. */
export const MAX_LOG_EXPORT_ROWS = 100_000;

/** The whole log (newest first) as CSV, for an auditor or a regulator; the download is on the audit trail. */
export async function exportRedisclosuresCsv(db: Db, actor: Actor): Promise<string> {
  const rows = await listRedisclosures(db, { limit: MAX_LOG_EXPORT_ROWS });
  await recordAudit(db, actor, "CSV_EXPORTED", { details: { export: "redisclosures", rows: rows.length } });
  return redisclosuresCsv(rows);
}
