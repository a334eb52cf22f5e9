import "server-only";
import { refreshReportRollups } from "@/lib/reports/rollups";
import { and, inArray, isNull, notInArray, or, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import {
  alerts,
  consumerIndex,
  dealReturns,
  enrichmentAnswers,
  findingDecisions,
  handoffs,
  householdGaps,
  legalHolds,
  lostDecisions,
  monitoringEvents,
  monitorings,
  policies,
  policyCheckRuns,
  policyXDates,
  pullArchiveWrites,
  pullAuthStates,
  pulls,
  pullStatusChecks,
  privacyRequests,
  pullVersions,
  reconnectPages,
  servicingRequests,
  webhookDeliveries,
  webhookEvents,
} from "@/db/schema";

// The one definition of "everything of a pull": an erasure (a consumer's request) and a
// disposal (the retention schedule) both remove a set of pulls through here. Most rows cascade
// from pulls; these go explicitly, counted, together with the rows that only name a pull or its
// account (no foreign key, so history could outlive the pull): the inbox bodies, monitoring
// events, alerts, deal returns, lost decisions, decisions on findings, enrichment answers,
// sign-in states, status checks and reconnect pages. The audit trail is append-only, so its rows
// of these pulls are redacted (details emptied, pull id cleared) by the owner's function
// redact_audit_events (migration 0035), never deleted. A test (remove-pulls.test.ts) reads
// every table of the schema after an erasure and fails on one that still holds the consumer.

export type RemovalReason = { kind: "ERASURE"; requestId: string | null } | { kind: "DISPOSAL"; rule?: string };

/** Rows removed (or, for the audit trail, redacted) by kind of record. */
export type RemovedCounts = Record<string, number>;

/** What a set of pulls says about its people: for the erased-subject hashes and the audit redaction. */
export type PullSubjects = {
  pullIds: string[];
  accounts: string[];
  emails: string[];
  vins: string[];
  names: string[];
};

const EMAIL_KEY = /(^|_)email$/i;
const NAME_KEYS = new Set(["first_name", "last_name"]);

/** Walks a payload for the values that identify its people: emails, VINs, first and last names. */
function collectFrom(value: unknown, into: { emails: Set<string>; vins: Set<string>; names: Set<string> }): void {
  if (Array.isArray(value)) {
    for (const item of value) collectFrom(item, into);
    return;
  }
  if (!value || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  const first = typeof record.first_name === "string" ? record.first_name.trim() : "";
  const last = typeof record.last_name === "string" ? record.last_name.trim() : "";
  if (first && last) into.names.add(`${first} ${last}`);
  for (const [key, child] of Object.entries(record)) {
    if (typeof child === "string") {
      const text = child.trim();
      if (!text || NAME_KEYS.has(key)) continue;
      if (EMAIL_KEY.test(key) && text.includes("@")) into.emails.add(text.toLowerCase());
      else if (key.toLowerCase() === "vin") into.vins.add(text.toUpperCase());
    } else collectFrom(child, into);
  }
}

/** The people of a set of pulls, read from every stored version of each. */
export async function subjectsOfPulls(db: Db, pullIds: string[]): Promise<PullSubjects> {
  const found = { emails: new Set<string>(), vins: new Set<string>(), names: new Set<string>() };
  const accounts = new Set<string>();
  if (pullIds.length === 0) return { pullIds: [], accounts: [], emails: [], vins: [], names: [] };
  const rows = await db
    .select({ raw: pulls.raw, email: pulls.email, account: pulls.accountIdentifier })
    .from(pulls)
    .where(inArray(pulls.pullId, pullIds));
  for (const row of rows) {
    collectFrom(row.raw, found);
    if (row.email) found.emails.add(row.email.toLowerCase());
    if (row.account) accounts.add(row.account);
  }
  const versions = await db
    .select({ raw: pullVersions.raw })
    .from(pullVersions)
    .where(inArray(pullVersions.pullId, pullIds));
  for (const version of versions) collectFrom(version.raw, found);
  return {
    pullIds: [...pullIds],
    accounts: [...accounts],
    emails: [...found.emails],
    vins: [...found.vins],
    names: [...found.names],
  };
}

/** The texts an audit row is redacted for (at least 6 characters: the function refuses shorter ones). */
export function redactionNeedles(subjects: PullSubjects): string[] {
  return [
    ...new Set(
      [...subjects.emails, ...subjects.vins, ...subjects.names, ...subjects.accounts].filter((t) => t.length >= 6),
    ),
  ];
}

async function counted(rows: Promise<unknown[]>): Promise<number> {
  return (await rows).length;
}

/**
 * Removes the pulls and everything of theirs, inside the caller's transaction, and answers
 * what went. The reason is the caller's (its tombstone says it): an erasure and a disposal
 * remove exactly the same. Rows keyed by account (decisions on findings, enrichment answers) go when no pull
 * outside the set still holds that account.
 */
export async function removePulls(tx: Db, pullIds: string[], _reason: RemovalReason): Promise<RemovedCounts> {
  const ids = [...new Set(pullIds)];
  const counts: RemovedCounts = {};
  if (ids.length === 0) return counts;
  const subjects = await subjectsOfPulls(tx, ids);
  const keptAccounts =
    subjects.accounts.length === 0
      ? []
      : (
          await tx
            .selectDistinct({ account: pulls.accountIdentifier })
            .from(pulls)
            .where(and(inArray(pulls.accountIdentifier, subjects.accounts), notInArray(pulls.pullId, ids)))
        ).map((r) => r.account);
  /** The accounts no pull outside the set still holds: their rows go with the set. */
  const freedAccounts = subjects.accounts.filter((a) => !keptAccounts.includes(a));
  const accountKeys = [...ids, ...freedAccounts];

  // A standing legal hold keeps its records whatever is asked: the disposal skips held accounts
  // and an erasure is refused before it gets here, so a hold met here is a bug, not a choice. A
  // lifted hold's record goes with the pulls: its account key may be the consumer's identifier.
  const holds = or(inArray(legalHolds.pullId, ids), inArray(legalHolds.accountKey, accountKeys));
  const standing = await tx
    .select({ id: legalHolds.id })
    .from(legalHolds)
    .where(and(isNull(legalHolds.liftedAt), holds));
  if (standing.length > 0) throw new Error("removePulls: a pull of the set is on legal hold");
  counts.legalHolds = await counted(tx.delete(legalHolds).where(holds).returning({ id: legalHolds.id }));

  const monitoringIds = (
    await tx
      .select({ id: monitorings.monitoringId })
      .from(monitorings)
      .where(
        or(
          inArray(monitorings.initialPullId, ids),
          inArray(monitorings.latestPullId, ids),
          inArray(monitorings.reconnectPullId, ids),
          freedAccounts.length > 0 ? inArray(monitorings.accountIdentifier, freedAccounts) : undefined,
        ),
      )
  ).map((r) => r.id);

  // Their dedup keys (webhook_event_keys, monitoring_event_keys) follow by trigger (migration 0044).
  counts.webhookEvents = await counted(
    tx
      .delete(webhookEvents)
      .where(
        or(
          inArray(webhookEvents.pullId, ids),
          sql`(${webhookEvents.payload} -> 'monitoring' ->> 'initial_pull_id') in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        ),
      )
      .returning({ id: webhookEvents.id }),
  );
  // Outgoing webhooks name a pull in their body (`data.pull_id`): sent or not, they go with it.
  counts.webhookDeliveries = await counted(
    tx
      .delete(webhookDeliveries)
      .where(
        sql`(${webhookDeliveries.payload} -> 'data' ->> 'pull_id') in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
      .returning({ id: webhookDeliveries.id }),
  );
  counts.monitoringEvents = await counted(
    tx
      .delete(monitoringEvents)
      .where(
        or(
          inArray(monitoringEvents.pullId, ids),
          monitoringIds.length > 0 ? inArray(monitoringEvents.monitoringId, monitoringIds) : undefined,
        ),
      )
      .returning({ id: monitoringEvents.id }),
  );
  counts.reconnectPages = await counted(
    tx
      .delete(reconnectPages)
      .where(
        or(
          inArray(reconnectPages.sessionPullId, ids),
          monitoringIds.length > 0 ? inArray(reconnectPages.monitoringId, monitoringIds) : undefined,
        ),
      )
      .returning({ id: reconnectPages.id }),
  );
  counts.monitorings =
    monitoringIds.length === 0
      ? 0
      : await counted(
          tx
            .delete(monitorings)
            .where(inArray(monitorings.monitoringId, monitoringIds))
            .returning({ id: monitorings.monitoringId }),
        );
  counts.authStates = await counted(
    tx.delete(pullAuthStates).where(inArray(pullAuthStates.pullId, ids)).returning({ id: pullAuthStates.pullId }),
  );
  counts.statusChecks = await counted(
    tx.delete(pullStatusChecks).where(inArray(pullStatusChecks.pullId, ids)).returning({ id: pullStatusChecks.pullId }),
  );
  counts.alerts = await counted(tx.delete(alerts).where(inArray(alerts.pullId, ids)).returning({ id: alerts.id }));
  counts.dealReturns = await counted(
    tx.delete(dealReturns).where(inArray(dealReturns.pullId, ids)).returning({ id: dealReturns.id }),
  );
  counts.lostDecisions = await counted(
    tx.delete(lostDecisions).where(inArray(lostDecisions.pullId, ids)).returning({ id: lostDecisions.id }),
  );
  counts.findingDecisions = await counted(
    tx
      .delete(findingDecisions)
      .where(or(inArray(findingDecisions.pullId, ids), inArray(findingDecisions.accountKey, accountKeys)))
      .returning({ id: findingDecisions.id }),
  );
  counts.enrichmentAnswers = await counted(
    tx
      .delete(enrichmentAnswers)
      .where(or(inArray(enrichmentAnswers.pullId, ids), inArray(enrichmentAnswers.accountKey, accountKeys)))
      .returning({ id: enrichmentAnswers.id }),
  );
  counts.servicingRequests = await counted(
    tx
      .delete(servicingRequests)
      .where(or(inArray(servicingRequests.pullId, ids), inArray(servicingRequests.servicingPullId, ids)))
      .returning({ id: servicingRequests.id }),
  );
  counts.policyCheckRuns = await counted(
    tx.delete(policyCheckRuns).where(inArray(policyCheckRuns.pullId, ids)).returning({ id: policyCheckRuns.id }),
  );
  counts.xDates = await counted(
    tx.delete(policyXDates).where(inArray(policyXDates.pullId, ids)).returning({ id: policyXDates.pullId }),
  );
  counts.crossSellRows = await counted(
    tx.delete(householdGaps).where(inArray(householdGaps.pullId, ids)).returning({ id: householdGaps.pullId }),
  );
  // The lead ids kept for AgencyZoom: the lead itself stays in the agency's AgencyZoom (the
  // redisclosure log names it as a recipient, so whoever handles the request knows to tell it).
  counts.handoffs = await counted(
    tx.delete(handoffs).where(inArray(handoffs.pullId, ids)).returning({ id: handoffs.id }),
  );
  counts.archiveWrites = await counted(
    tx
      .delete(pullArchiveWrites)
      .where(inArray(pullArchiveWrites.pullId, ids))
      .returning({ id: pullArchiveWrites.pullId }),
  );
  counts.indexEntries = await counted(
    tx.delete(consumerIndex).where(inArray(consumerIndex.pullId, ids)).returning({ id: consumerIndex.pullId }),
  );
  counts.policies = await counted(
    tx.delete(policies).where(inArray(policies.pullId, ids)).returning({ id: policies.policyId }),
  );
  counts.snapshots = await counted(
    tx.delete(pullVersions).where(inArray(pullVersions.pullId, ids)).returning({ id: pullVersions.id }),
  );
  // Other requests that name these pulls (an earlier access request) forget them too.
  const idList = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  counts.requestsUpdated = await counted(
    tx
      .update(privacyRequests)
      .set({ pullIds: sql`array(select unnest(${privacyRequests.pullIds}) except select unnest(${idList}))` })
      .where(sql`${privacyRequests.pullIds} && ${idList}`)
      .returning({ id: privacyRequests.id }),
  );
  counts.pulls = await counted(tx.delete(pulls).where(inArray(pulls.pullId, ids)).returning({ id: pulls.pullId }));

  const [redacted] = await queryRows<{ redacted: number }>(
    tx,
    sql`select redact_audit_events(${sql`array[${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]`}, ${sql`array[${sql.join(
      redactionNeedles(subjects).map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`}) as redacted`,
  );
  counts.auditRowsRedacted = Number(redacted?.redacted ?? 0);
  // The reports' sums lose these pulls now, and the pulls' facts and change marks go with them
  // (report_facts, report_source_facts, report_dirty), in this transaction.
  await refreshReportRollups(tx);
  return counts;
}
