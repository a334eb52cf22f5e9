import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { eq, sql } from "drizzle-orm";
import { fromExcluded } from "@/db/sql";
import type { Db } from "@/db/types";
import { policies, pullArchiveWrites, pulls, pullVersions } from "@/db/schema";
import { parsePull, unwrapPull, type Pull } from "@/lib/service/schemas";
import { autoAssignPull } from "@/lib/workflow/auto-assign";
import { carryOverAccount, getEarlierAccountPull } from "@/lib/workflow/carry-over";
import { refreshAccountXDates } from "@/lib/xdates/store";
import { refreshHouseholdGaps } from "@/lib/cross-sell/store";
import { raiseRefreshAlerts } from "@/lib/alerts/raise";
import { returnWonClient } from "@/lib/workflow/win-back";
import { contentHash, projectPolicies, projectPull } from "@/lib/pulls/projection";
import { rekeyInitialPull, resolveAccountKey } from "@/lib/pulls/account-key";
import { isReadingType, SERVICING_TYPE } from "@/lib/pulls/pull-types";
import { indexEntriesOf, writeConsumerIndex } from "@/lib/privacy/consumer-index";
import { holdErasureLock, refuseIfErased } from "@/lib/privacy/erased-subjects";

export type StorePullResult =
  | { outcome: "created" | "updated" | "unchanged" | "stale"; pullId: string; problems: number }
  | { outcome: "invalid"; error: string }
  /** The pull, its account or its email was erased on a consumer's request: nothing is stored (lib/privacy). */
  | { outcome: "refused"; pullId: string };

export type StoreOptions = {
  /**
   * When the fetch that brought this payload started. A fetch that started later saw data at
   * least as new, so a payload from an earlier fetch never replaces it ("stale"): two workers,
   * or a worker and a sync, racing on one pull always leave the newest data.
   */
  fetchStartedAt?: Date;
  /** The monitoring's first pull, when a webhook about this pull named it: this one is then a refresh of that account. */
  initialPullId?: string | null;
  /** `account_identifier` of a webhook about this pull: the real service's pulls often lack their own. */
  webhookAccountIdentifier?: string | null;
};

export async function storePull(db: Db, payload: unknown, options: StoreOptions = {}): Promise<StorePullResult> {
  const fetchedAt = options.fetchStartedAt ?? new Date();
  const raw = unwrapPull(payload);
  const parsed = parsePull(raw);
  if (!parsed.ok) return { outcome: "invalid", error: parsed.error };
  const { pull, problems } = parsed;
  const hash = contentHash(raw);
  const projection = projectPull(pull);
  const policyRows = projectPolicies(pull);

  return db.transaction(async (tx): Promise<StorePullResult> => {
    // An erased consumer stays erased: a sync, a redelivered webhook or a refresh of their
    // account is refused, and only counted (the erased subject's row), never stored. An erasure
    // under way is waited for, so its hashes are seen.
    await holdErasureLock(tx, "shared");
    if (
      await refuseIfErased(tx, {
        pullIds: [pull.pull_id, pull.parent_pull_id, options.initialPullId].filter((v): v is string => Boolean(v)),
        accounts: [pull.account_identifier, options.webhookAccountIdentifier ?? null],
        emails: [pull.email, pull.account_email],
      })
    )
      return { outcome: "refused", pullId: pull.pull_id };
    const existing = await tx
      .select({
        contentHash: pulls.contentHash,
        raw: pulls.raw,
        fetchedAt: pulls.fetchedAt,
        status: pulls.status,
        assigneeId: pulls.assigneeId,
        accountIdentifier: pulls.accountIdentifier,
      })
      .from(pulls)
      .where(eq(pulls.pullId, pull.pull_id))
      .for("update");
    const previous = existing[0];
    if (previous && previous.fetchedAt > fetchedAt)
      return { outcome: "stale", pullId: pull.pull_id, problems: problems.length };
    const account = await resolveAccountKey(tx, {
      pullId: pull.pull_id,
      type: pull.type,
      own: projection.accountIdentifier,
      stored: previous?.accountIdentifier ?? null,
      webhookAccount: options.webhookAccountIdentifier,
      initialPullId: options.initialPullId,
    });
    projection.accountIdentifier = account.key;
    // The same data under the same account changes nothing; a webhook that names the account
    // of a pull stored alone (this one, or its monitoring's initial pull) is news, though the
    // payload is the same.
    const sameContent = previous?.contentHash === hash;
    if (sameContent && previous?.accountIdentifier === account.key && !account.rekeyInitial) {
      await tx.update(pulls).set({ fetchedAt }).where(eq(pulls.pullId, pull.pull_id));
      return { outcome: "unchanged", pullId: pull.pull_id, problems: problems.length };
    }

    if (previous && !sameContent) {
      await tx.insert(pullVersions).values({
        pullId: pull.pull_id,
        contentHash: previous.contentHash,
        raw: previous.raw,
        fetchedAt: previous.fetchedAt,
      });
    }
    const values = { ...projection, raw, payloadProblems: problems, contentHash: hash, fetchedAt };
    // An archive decision the service has not confirmed yet (lib/ingest/archive.ts) outranks its
    // older flag; once the service's flag agrees, the decision is settled and its flag rules again.
    const [pendingArchive] = previous
      ? await tx
          .select({ archived: pullArchiveWrites.archived })
          .from(pullArchiveWrites)
          .where(eq(pullArchiveWrites.pullId, pull.pull_id))
      : [];
    if (pendingArchive && pendingArchive.archived === values.isArchived)
      await tx.delete(pullArchiveWrites).where(eq(pullArchiveWrites.pullId, pull.pull_id));
    else if (pendingArchive) values.isArchived = pendingArchive.archived;
    const [written] = await tx
      .insert(pulls)
      .values({ pullId: pull.pull_id, ...values })
      .onConflictDoUpdate({
        target: pulls.pullId,
        set: { ...fromExcluded(pulls, objectKeys(values)), updatedAt: sql`now()` },
      })
      // xmax is 0 on a row this statement inserted (not one it updated): nothing can refer to it yet.
      .returning({ inserted: sql<boolean>`xmax = 0` });
    const fresh = written?.inserted === true;
    if (!fresh) await tx.delete(policies).where(eq(policies.pullId, pull.pull_id));
    // The request desk finds a person by these keyed hashes (lib/privacy/consumer-index.ts).
    await writeConsumerIndex(tx, pull.pull_id, indexEntriesOf(pull, projection.accountIdentifier), { fresh });
    // A policy repeated within one payload would break the primary key: keep the first.
    const unique = [...new Map(policyRows.map((p) => [p.policyId, p])).values()];
    if (unique.length > 0) {
      await tx.insert(policies).values(unique.map((p) => ({ ...p, pullId: pull.pull_id })));
    }
    // The monitoring's initial pull stood alone: it is now of this pull's account too.
    if (account.rekeyInitial && account.key && (await rekeyInitialPull(tx, account.rekeyInitial, account.key))) {
      await refreshAccountXDates(tx, account.rekeyInitial);
      await refreshHouseholdGaps(tx, account.rekeyInitial);
    }
    // A refresh or reconnect of an account already stored keeps that account's owner, stage
    // and credit, and is never handed out as new business (lib/workflow/carry-over.ts). Only a
    // reading of an account (lib/pulls/pull-types.ts) is one; a SERVICING pull, or one the
    // service deleted, is never a lead of its own either.
    const topLevel = !pull.parent_pull_id;
    const reading = topLevel && isReadingType(pull.type) && projection.deletedAt === null;
    const listed = topLevel && pull.type !== SERVICING_TYPE && projection.deletedAt === null;
    const mayBecomeLead =
      listed && pull.status === "SUCCESS" && previous?.status !== "SUCCESS" && !previous?.assigneeId;
    const earlier =
      reading && (!previous || mayBecomeLead)
        ? await getEarlierAccountPull(tx, {
            pullId: pull.pull_id,
            accountIdentifier: projection.accountIdentifier,
            serviceCreatedAt: projection.serviceCreatedAt,
            initialPullId: options.initialPullId,
          })
        : null;
    if (!previous && earlier) await carryOverAccount(tx, pull.pull_id, earlier);
    // A linked account becomes a lead when it first succeeds: that is when it may be auto-assigned.
    if (mayBecomeLead && !earlier)
      await autoAssignPull(tx, {
        pullId: pull.pull_id,
        states: statesOf(pull),
        linesOfBusiness: projection.policyTypes,
      });
    // Last, so the X-dates copy the owner, stage and link just carried over or assigned.
    // The pull's account and place are known here: the derived rows need not read them back.
    const self = { accountIdentifier: projection.accountIdentifier, parentPullId: projection.parentPullId };
    await refreshAccountXDates(tx, pull.pull_id, { pull, raw, self });
    // The household's cross-sell row, kept like its X-dates (lib/cross-sell/store.ts).
    await refreshHouseholdGaps(tx, pull.pull_id, { pull, raw, self });
    // A refresh compares with the account's previous successful snapshot: this pull's own
    // before an update, else the account's earlier pull. Renewal premium jumps, cancellations,
    // lapses and coverage cuts become alerts (lib/alerts/raise.ts), each raised once.
    if (reading && pull.status === "SUCCESS") {
      const accountBefore =
        previous?.status === "SUCCESS"
          ? null
          : (earlier ??
            (await getEarlierAccountPull(tx, {
              pullId: pull.pull_id,
              accountIdentifier: projection.accountIdentifier,
              serviceCreatedAt: projection.serviceCreatedAt,
              initialPullId: options.initialPullId,
            })));
      const before = previous?.status === "SUCCESS" ? { raw: previous.raw } : accountBefore;
      // A won client whose policy is gone comes back to WORKING (lib/workflow/win-back.ts);
      // first, so the alerts go to whoever holds the account after it.
      await returnWonClient(tx, { pull, before });
      await raiseRefreshAlerts(tx, { pull, before });
    }
    // Other systems hear of a new pull (lib/webhooks/events.ts), in this transaction.
    if (!previous) await enqueueEvent(tx, "pull.created", { pull_id: pull.pull_id, status: pull.status });
    return { outcome: previous ? "updated" : "created", pullId: pull.pull_id, problems: problems.length };
  });
}

const objectKeys = <T extends object>(value: T) => Object.keys(value) as Array<keyof T & string>;

/** The states an account is in: its policies' and addresses' (upper-case codes). */
function statesOf(pull: Pull): string[] {
  const states = [...pull.policies.map((p) => p.state), ...pull.addresses.map((a) => a.state)];
  return [...new Set(states.filter((s): s is string => Boolean(s)).map((s) => s.toUpperCase()))];
}
