import "server-only";
import { openSensitive } from "@/lib/security/sensitive-fields";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { columnName } from "@/db/sql";
import type { Db } from "@/db/types";
import { webhookEvents } from "@/db/schema";
import { isRateLimited, ServiceError } from "@/lib/service/errors";
import { storePull } from "@/lib/ingest/store-pull";
import { applyEventEffects } from "./apply-event";
import { isDatabaseUnavailable } from "./database-unavailable";
import { MAX_EVENT_ATTEMPTS, nextRetryDelayMs, rateLimitDelayMs } from "./retry-policy";

// The worker's unit of work: claim due inbox events, re-fetch each pull once with our own
// credentials, store it, and settle every claimed event as done, retried or failed.

export type FetchPull = (pullId: string) => Promise<unknown>;

/** Pulls claimed per cycle; measured with `npm run bench:ingest`. */
export const DEFAULT_PULLS_PER_BATCH = 50;

/**
 * Pulls fetched and stored at once by one worker. More only queue on the database's connections
 * (the pool holds 10, and the web requests of the same process need some) and on its CPU: each
 * store is a transaction of about fifteen statements that waits on the database, not on us.
 */
export const DEFAULT_PULLS_IN_FLIGHT = 8;

export type ProcessOptions = {
  workerId: string;
  /** Pulls per claim (each with all of its due events). */
  batchSize?: number;
  /** Pulls of the claim fetched and stored at once. */
  concurrency?: number;
  /**
   * True once the worker is stopping: no more of the claim's pulls are started. Those in flight
   * finish; the rest stay claimed and are given back, attempts untouched, when the worker stops.
   */
  stopping?: () => boolean;
  /** A claim older than this is considered abandoned by a crashed worker. */
  staleAfterMs?: number;
  /** Wait before a failed event is tried again; the retry policy's backoff by default. */
  retryDelayMs?: (attempts: number) => number;
  /** Wait after a 429, from the service's Retry-After (null: it gave none); the retry policy's by default. */
  rateLimitDelayMs?: (retryAfterMs: number | null) => number;
  log?: (message: string) => void;
};

export type ProcessSummary = {
  claimed: number;
  done: number;
  retried: number;
  failed: number;
  /** Pulls fetched from the service this cycle. */
  fetched: number;
  /** Pulls whose fetch found the service not answering (network error, timeout, 5xx). */
  unreachable: number;
  /** Pulls whose fetch the service refused with 429; their events wait, attempts untouched. */
  rateLimited: number;
  /** The latest time a refused event was put off to: nothing should be asked of the service before. */
  limitedUntil: Date | null;
};

type ClaimedEvent = { id: number; pull_id: string | null; attempts: number; payload: unknown };

export async function releaseStaleClaims(db: Db, staleAfterMs: number): Promise<number> {
  const released = await db
    .update(webhookEvents)
    .set({ status: "PENDING", lockedAt: null, lockedBy: null })
    .where(
      and(
        eq(webhookEvents.status, "PROCESSING"),
        lt(webhookEvents.lockedAt, sql`now() - make_interval(secs => ${staleAfterMs / 1000})`),
      ),
    )
    .returning({ id: webhookEvents.id });
  return released.length;
}

/**
 * Gives back what this worker claimed (on a graceful stop, or after a cycle the database cut
 * short), without counting the claim as an attempt: nothing was tried against the service.
 */
export async function releaseClaims(db: Db, workerId: string): Promise<number> {
  const released = await db
    .update(webhookEvents)
    .set({
      status: "PENDING",
      lockedAt: null,
      lockedBy: null,
      attempts: sql`greatest(${webhookEvents.attempts} - 1, 0)`,
    })
    .where(and(eq(webhookEvents.status, "PROCESSING"), eq(webhookEvents.lockedBy, workerId)))
    .returning({ id: webhookEvents.id });
  return released.length;
}

/** No answer, a timeout, or a 5xx: the service (or the way to it) is down, not this pull. */
export function isServiceUnreachableError(error: ServiceError): boolean {
  return error.status === 0 || error.status >= 500;
}

/** Events waiting to be retried after a failure (the attempt counts failed tries). */
const waitingForRetry = sql`${webhookEvents.status} = 'PENDING' and ${webhookEvents.attempts} > 0 and ${webhookEvents.nextAttemptAt} > now()`;

/**
 * While the service is down, makes the one event that would be retried first due now: a
 * single fetch tells whether the service is back, instead of every event finding out.
 */
export async function probeWithOneWaitingEvent(db: Db): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${webhookEvents} set ${columnName(webhookEvents.nextAttemptAt)} = now()
        where ${webhookEvents.id} = (
          select ${webhookEvents.id} from ${webhookEvents} where ${waitingForRetry} order by ${webhookEvents.nextAttemptAt} limit 1)
        returning ${webhookEvents.id}`,
  );
  return rows.length > 0;
}

/** Once the service answers again: everything waiting on a retry is due now, not at the end of its backoff. */
export async function retryWaitingEventsNow(db: Db): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${webhookEvents} set ${columnName(webhookEvents.nextAttemptAt)} = now() where ${waitingForRetry} returning ${webhookEvents.id}`,
  );
  return rows.length;
}

/**
 * Claims every due event of up to `limit` pulls, so that one fetch answers all of a pull's
 * events. Pulls another worker is busy with are left to it: its fetch brings the same data.
 * SKIP LOCKED lets several app instances share one inbox without taking the same row.
 */
const due = sql`${webhookEvents.status} = 'PENDING' and ${webhookEvents.nextAttemptAt} <= now()`;

async function claimEvents(db: Db, workerId: string, limit: number): Promise<ClaimedEvent[]> {
  const rows = await queryRows<ClaimedEvent>(
    db,
    // Every column below is the innermost webhook_events' of its subquery.
    sql`update ${webhookEvents}
        set ${columnName(webhookEvents.status)} = 'PROCESSING', ${columnName(webhookEvents.lockedAt)} = now(),
            ${columnName(webhookEvents.lockedBy)} = ${workerId}, ${columnName(webhookEvents.attempts)} = ${webhookEvents.attempts} + 1
        where ${webhookEvents.id} in (
          select ${webhookEvents.id} from ${webhookEvents}
          where ${due}
            and ${webhookEvents.pullId} in (
              select ${webhookEvents.pullId} from ${webhookEvents}
              where ${due}
                and ${webhookEvents.pullId} not in (
                  select ${webhookEvents.pullId} from ${webhookEvents}
                  where ${webhookEvents.status} = 'PROCESSING' and ${webhookEvents.pullId} is not null)
              group by ${webhookEvents.pullId}
              order by min(${webhookEvents.nextAttemptAt})
              limit ${limit}
            )
          for update skip locked
        )
        returning ${webhookEvents.id}, ${webhookEvents.pullId} as pull_id, ${webhookEvents.attempts}, ${webhookEvents.payload}`,
  );
  // Read past the column's codec: the body's birth dates and licences open here, as a select would.
  return rows.map((row) => ({ ...row, payload: openSensitive(row.payload) }));
}

/** `untilDone`: retried however many attempts it takes (the service being down is no reason to give up on an event). */
type Outcome = { ok: true } | { ok: false; error: string; retry: boolean; attempts: number; untilDone?: boolean };

/**
 * Settles only what this worker still holds: a worker that was presumed dead (its claims were
 * released and taken by another) must not overwrite what the other one decided.
 */
async function settle(
  db: Db,
  workerId: string,
  ids: number[],
  outcome: Outcome,
  retryDelayMs: (attempts: number) => number,
) {
  if (ids.length === 0) return;
  const where = and(
    inArray(webhookEvents.id, ids),
    eq(webhookEvents.status, "PROCESSING"),
    eq(webhookEvents.lockedBy, workerId),
  );
  if (outcome.ok) {
    await db
      .update(webhookEvents)
      .set({ status: "DONE", processedAt: new Date(), lockedAt: null, lockedBy: null, lastError: null })
      .where(where);
  } else if (outcome.retry && (outcome.untilDone || outcome.attempts < MAX_EVENT_ATTEMPTS)) {
    const next = new Date(Date.now() + retryDelayMs(outcome.attempts));
    await db
      .update(webhookEvents)
      .set({ status: "PENDING", nextAttemptAt: next, lockedAt: null, lockedBy: null, lastError: outcome.error })
      .where(where);
  } else {
    await db
      .update(webhookEvents)
      .set({ status: "FAILED", processedAt: new Date(), lockedAt: null, lockedBy: null, lastError: outcome.error })
      .where(where);
  }
}

/**
 * The service refused to be asked now (429): back to the queue at the time it gave, and the
 * claim is not counted as an attempt, so no rate limit, however long, parks an event as failed.
 */
async function settleRateLimited(db: Db, workerId: string, ids: number[], error: string, until: Date) {
  await db
    .update(webhookEvents)
    .set({
      status: "PENDING",
      nextAttemptAt: until,
      lockedAt: null,
      lockedBy: null,
      lastError: error,
      attempts: sql`greatest(${webhookEvents.attempts} - 1, 0)`,
    })
    .where(
      and(inArray(webhookEvents.id, ids), eq(webhookEvents.status, "PROCESSING"), eq(webhookEvents.lockedBy, workerId)),
    );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The monitoring's first pull as the pull's webhooks name it: the account a refresh belongs to. */
function initialPullIdOf(events: ClaimedEvent[]): string | null {
  for (const event of events) {
    const monitoring =
      event.payload && typeof event.payload === "object"
        ? (event.payload as { monitoring?: unknown }).monitoring
        : null;
    const id =
      monitoring && typeof monitoring === "object"
        ? (monitoring as { initial_pull_id?: unknown }).initial_pull_id
        : null;
    if (typeof id === "string" && UUID.test(id) && id !== event.pull_id) return id;
  }
  return null;
}

/** `account_identifier` as the pull's webhooks carry it (the service's pulls often lack their own). */
function accountIdentifierOf(events: ClaimedEvent[]): string | null {
  for (const event of events) {
    const account =
      event.payload && typeof event.payload === "object"
        ? (event.payload as { account_identifier?: unknown }).account_identifier
        : null;
    if (typeof account === "string" && account.trim() !== "") return account;
  }
  return null;
}

export async function processDueEvents(db: Db, fetchPull: FetchPull, options: ProcessOptions): Promise<ProcessSummary> {
  const log = options.log ?? (() => {});
  const retryDelayMs = options.retryDelayMs ?? ((attempts: number) => nextRetryDelayMs(attempts));
  const limitDelayMs = options.rateLimitDelayMs ?? ((retryAfterMs: number | null) => rateLimitDelayMs(retryAfterMs, 1));
  const settleAs = (ids: number[], outcome: Outcome) => settle(db, options.workerId, ids, outcome, retryDelayMs);
  await releaseStaleClaims(db, options.staleAfterMs ?? 120_000);
  const claimed = await claimEvents(db, options.workerId, options.batchSize ?? DEFAULT_PULLS_PER_BATCH);
  const summary: ProcessSummary = {
    claimed: claimed.length,
    done: 0,
    retried: 0,
    failed: 0,
    fetched: 0,
    unreachable: 0,
    rateLimited: 0,
    limitedUntil: null,
  };

  // Several events about one pull need one fetch: the latest data answers all of them.
  const byPull = new Map<string, ClaimedEvent[]>();
  for (const event of claimed) {
    const key = event.pull_id ?? "";
    byPull.set(key, [...(byPull.get(key) ?? []), event]);
  }

  // Events whose pull was stored, settled together once the claim's pulls are through: one
  // statement instead of one per pull.
  const doneIds: number[] = [];

  // Settled, not all: when the database goes away mid-cycle, every pull's work must have ended
  // before the error reaches the loop, or the next cycle would overlap this one.
  const outcomes = await settledInPool(
    [...byPull.entries()],
    options.concurrency ?? DEFAULT_PULLS_IN_FLIGHT,
    options.stopping ?? (() => false),
    async ([pullId, events]) => {
      const ids = events.map((e) => e.id);
      const attempts = Math.max(...events.map((e) => e.attempts));
      if (!pullId) {
        await settleAs(ids, { ok: false, error: "The event names no pull.", retry: false, attempts });
        summary.failed += ids.length;
        return;
      }
      try {
        const fetchStartedAt = new Date();
        const payload = await fetchPull(pullId);
        summary.fetched++;
        const stored = await storePull(db, payload, {
          fetchStartedAt,
          initialPullId: initialPullIdOf(events),
          webhookAccountIdentifier: accountIdentifierOf(events),
        });
        if (stored.outcome === "refused") {
          // The consumer was erased: the events go too (their bodies name the person), and the
          // refusal is counted on the erased subject (lib/privacy/erased-subjects.ts).
          await db.delete(webhookEvents).where(inArray(webhookEvents.id, ids));
          summary.done += ids.length;
          return;
        }
        if (stored.outcome === "invalid") {
          log(`pull ${pullId}: the service's answer is not a pull (${stored.error})`);
          await settleAs(ids, {
            ok: false,
            error: `The service answered with an invalid pull: ${stored.error}`,
            retry: false,
            attempts,
          });
          summary.failed += ids.length;
          return;
        }
        // In arrival order, so that e.g. a reconnect request and its later success settle right.
        for (const event of [...events].sort((a, b) => a.id - b.id))
          await applyEventEffects(db, event.id, event.payload);
        doneIds.push(...ids);
      } catch (error) {
        // The database went away: not the event's fault, and settling would fail too. The
        // cycle fails; the loop gives the claims back, attempts untouched, once it returns.
        const serviceError = error instanceof ServiceError ? error : null;
        if (!serviceError && isDatabaseUnavailable(error)) throw error;
        if (serviceError?.isNotFound) {
          // Retrying cannot make an unknown pull appear; park it where an admin can see it.
          log(`pull ${pullId}: the service does not know this pull; event parked as failed`);
          await settleAs(ids, {
            ok: false,
            error: `The service does not know pull ${pullId}.`,
            retry: false,
            attempts,
          });
          summary.failed += ids.length;
          return;
        }
        if (isRateLimited(error)) {
          const until = new Date(Date.now() + limitDelayMs(error.retryAfterMs));
          await settleRateLimited(db, options.workerId, ids, error.message, until);
          summary.rateLimited++;
          summary.retried += ids.length;
          if (!summary.limitedUntil || until > summary.limitedUntil) summary.limitedUntil = until;
          return;
        }
        const message = serviceError ? serviceError.message : error instanceof Error ? error.message : String(error);
        const retry = serviceError ? serviceError.retryable : true;
        // The service not answering says nothing about this pull: keep the event until it does
        // (the loop brings waiting events forward once the service answers again).
        const untilDone = serviceError !== null && isServiceUnreachableError(serviceError);
        if (untilDone) summary.unreachable++;
        await settleAs(ids, { ok: false, error: message, retry, attempts, untilDone });
        const willRetry = retry && (untilDone || attempts < MAX_EVENT_ATTEMPTS);
        if (willRetry) summary.retried += ids.length;
        else summary.failed += ids.length;
        log(`pull ${pullId}: ${message}${willRetry ? " (will retry)" : " (parked as failed)"}`);
      }
    },
  );
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) {
    // What was stored is settled if the database still lets us; otherwise the loop gives those
    // claims back with the rest, and their pulls come again as "unchanged".
    await settleAs(doneIds, { ok: true }).catch(() => {});
    throw failure.reason;
  }
  await settleAs(doneIds, { ok: true });
  summary.done += doneIds.length;
  return summary;
}

/**
 * `work` on every item, at most `limit` at once; like Promise.allSettled, waits for all it
 * started. Once `stopping` answers true no item is started: the outcomes are those of the started.
 */
async function settledInPool<T>(
  items: readonly T[],
  limit: number,
  stopping: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length && !stopping()) {
      const index = next++;
      try {
        await work(items[index] as T);
        results[index] = { status: "fulfilled", value: undefined };
      } catch (reason) {
        results[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results.filter((result) => result !== undefined);
}
