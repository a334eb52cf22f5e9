import "server-only";
import { and, eq, isNotNull, isNull, lte, not, or, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitoringEventKeys, monitoringEvents, monitorings, pullAuthStates, pulls } from "@/db/schema";
import { columnName, qualified } from "@/db/sql";
import { completeReconnectPages } from "@/lib/monitoring/reconnect-page";
import { recordServicingEvent } from "@/lib/servicing/progress";
import { parseWebhookEvent, type WebhookEvent } from "@/lib/service/schemas";

// What an event says beyond "this pull has new data": the state of a login (AUTH_STATUS), an
// account that needs its consumer (MONITORING_RECONNECT), what changed (MONITORING_EVENTS),
// and which monitoring a pull belongs to. Every write here is idempotent, so an event that is
// processed twice (a crash before it was settled) changes nothing the second time.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: string | null | undefined) => (value && UUID.test(value) ? value : null);

async function linkMonitoring(db: Db, event: WebhookEvent, pullId: string): Promise<void> {
  const monitoringId = event.monitoring?.monitoring_id;
  if (!monitoringId) return;
  await db
    .insert(monitorings)
    .values({
      monitoringId,
      initialPullId: uuidOrNull(event.monitoring?.initial_pull_id),
      accountIdentifier: event.account_identifier,
      latestPullId: pullId,
    })
    .onConflictDoUpdate({
      target: monitorings.monitoringId,
      set: {
        initialPullId: sql`coalesce(${monitorings.initialPullId}, excluded.${columnName(monitorings.initialPullId)})`,
        accountIdentifier: sql`coalesce(excluded.${columnName(monitorings.accountIdentifier)}, ${monitorings.accountIdentifier})`,
        updatedAt: sql`now()`,
      },
    });
  // The latest pull only moves forward: a late event about an older refresh leaves it alone.
  await db.execute(sql`
    update ${monitorings} set ${columnName(monitorings.latestPullId)} = ${pullId}, ${columnName(monitorings.updatedAt)} = now()
    where ${monitorings.monitoringId} = ${monitoringId}
      and ${monitorings.latestPullId} is distinct from ${pullId}
      and coalesce(${createdAt(pullId)}, now()) >= coalesce(${createdAt(qualified(monitorings, monitorings.latestPullId))}, '-infinity'::timestamptz)`);
}

async function recordAuthStatus(
  db: Db,
  pullId: string,
  data: { auth_status: string | null; login_error_message: string | null; sequence: number | null; options: unknown },
): Promise<void> {
  const sequence = data.sequence ?? 0;
  await db
    .insert(pullAuthStates)
    .values({
      pullId,
      authStatus: data.auth_status,
      sequence,
      loginErrorMessage: data.login_error_message,
      options: data.options,
    })
    .onConflictDoUpdate({
      target: pullAuthStates.pullId,
      set: {
        authStatus: data.auth_status,
        sequence,
        loginErrorMessage: data.login_error_message,
        options: data.options,
        updatedAt: sql`now()`,
      },
      // A delivery older than what we hold (lower sequence) must not move the login backwards.
      setWhere: lte(pullAuthStates.sequence, sequence),
    });
}

/** When the service created a pull (its own time, not when we heard of it); null when unknown. */
const P = (column: Column) => qualified("p", column);
const createdAt = (pullId: SQL | string) =>
  sql`(select ${P(pulls.serviceCreatedAt)} from ${pulls} ${sql.identifier("p")} where ${P(pulls.pullId)} = ${pullId})`;

// Outer rows are named in full, subqueries' rows by alias (db/sql.ts `qualified`): drizzle
// writes a column of a one-table update unqualified, which inside a subquery on pulls could
// name the subquery's own row.
const M = (column: Column) => qualified(monitorings, column);
const OPEN_REQUEST_PULL = M(monitorings.reconnectPullId);

const CLEARED = {
  reconnectRequestedAt: null,
  reconnectPullId: null,
  reconnectAuthStatus: null,
  reconnectUrl: null,
  reconnectToken: null,
} as const;

/**
 * Closes the reconnect request this pull answers (its login succeeded, or it completed), and a
 * request of its monitoring about an older pull once this newer one has succeeded: a refresh
 * that got through means the account is connected again.
 */
async function clearReconnect(
  db: Db,
  pullId: string,
  monitoringId: string | null,
  succeeded: boolean | SQL,
): Promise<void> {
  await db
    .update(monitorings)
    .set({ ...CLEARED, updatedAt: new Date() })
    .where(eq(monitorings.reconnectPullId, pullId));
  if (!monitoringId) return;
  await db
    .update(monitorings)
    .set({ ...CLEARED, updatedAt: new Date() })
    .where(
      and(
        eq(monitorings.monitoringId, monitoringId),
        isNotNull(monitorings.reconnectPullId),
        typeof succeeded === "boolean" ? sql`${succeeded}` : succeeded,
        sql`coalesce(${createdAt(pullId)}, now()) >= coalesce(${createdAt(OPEN_REQUEST_PULL)}, '-infinity'::timestamptz)`,
      ),
    );
}

/**
 * Whether the account's login has succeeded on a pull at least as new as this one (this pull
 * itself included): by the SUCCESS of its AUTH_STATUS, or the status the worker just fetched.
 * A reconnect request about such a pull is a late or repeated delivery of a need already met.
 */
function succeededSince(pullId: string): SQL {
  const S = (column: Column) => qualified("s", column);
  const A = (column: Column) => qualified("a", column);
  return sql`exists (
    select 1 from ${pulls} ${sql.identifier("s")} left join ${pullAuthStates} ${sql.identifier("a")} on ${A(pullAuthStates.pullId)} = ${S(pulls.pullId)}
    where (${S(pulls.pullId)} = ${pullId} or ${S(pulls.pullId)} = ${M(monitorings.latestPullId)} or ${S(pulls.pullId)} = ${M(monitorings.initialPullId)}
           or (${M(monitorings.accountIdentifier)} is not null and ${S(pulls.accountIdentifier)} = ${M(monitorings.accountIdentifier)}))
      and ${S(pulls.parentPullId)} is null
      and (${S(pulls.status)} = 'SUCCESS' or ${A(pullAuthStates.authStatus)} = 'SUCCESS')
      and (${S(pulls.pullId)} = ${pullId} or coalesce(${S(pulls.serviceCreatedAt)}, '-infinity'::timestamptz) >= coalesce(${createdAt(pullId)}, 'infinity'::timestamptz)))`;
}

export async function applyEventEffects(db: Db, inboxEventId: number, payload: unknown): Promise<void> {
  const parsed = parseWebhookEvent(payload);
  if (!parsed.ok) return; // the receiver checked the envelope; nothing more to learn here
  const event = parsed.value;
  const pullId = uuidOrNull(event.pull_id);
  if (!pullId) return;
  await linkMonitoring(db, event, pullId);
  // A SERVICING pull's news for the servicing requests it answers (lib/servicing/progress.ts).
  await recordServicingEvent(db, pullId, {
    eventType: event.event_type,
    servicingActionId:
      event.is_known_event && event.event_type === "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION"
        ? event.data.servicing_action_id
        : null,
  });
  if (!event.is_known_event) return;

  switch (event.event_type) {
    case "AUTH_STATUS":
      await recordAuthStatus(db, pullId, event.data);
      if (event.data.auth_status === "SUCCESS") {
        await clearReconnect(db, pullId, event.monitoring?.monitoring_id ?? null, true);
        await completeReconnectPages(db, pullId);
      }
      return;
    case "COMPLETE":
      await clearReconnect(
        db,
        pullId,
        event.monitoring?.monitoring_id ?? null,
        sql`exists (select 1 from ${pulls} ${sql.identifier("c")} where ${qualified("c", pulls.pullId)} = ${pullId} and ${qualified("c", pulls.status)} = 'SUCCESS')`,
      );
      return;
    case "MONITORING_RECONNECT": {
      const monitoringId = event.monitoring?.monitoring_id;
      if (!monitoringId) return;
      const reconnect = {
        reconnectRequestedAt: new Date(),
        reconnectPullId: pullId,
        reconnectAuthStatus: event.data.auth_status,
        reconnectUrl: event.data.reconnect_url,
        reconnectToken: event.data.reconnect_token,
        updatedAt: new Date(),
      };
      // Ordered by the pull the request names, never by when it reached us: a late or repeated
      // delivery must not reopen a need a newer login closed, nor replace a request about a
      // newer pull. (Webhook bodies carry no time of their own.)
      const newerThanOpenRequest = sql`coalesce(${createdAt(pullId)}, now()) >= coalesce(${createdAt(OPEN_REQUEST_PULL)}, '-infinity'::timestamptz)`;
      await db
        .update(monitorings)
        .set(reconnect)
        .where(
          and(
            eq(monitorings.monitoringId, monitoringId),
            or(isNull(monitorings.reconnectPullId), eq(monitorings.reconnectPullId, pullId), newerThanOpenRequest),
            not(succeededSince(pullId)),
          ),
        );
      // Where the login stopped is the first step of the reconnect page (with its options);
      // sequence 0, so any AUTH_STATUS of the consumer's answers replaces it.
      await db
        .insert(pullAuthStates)
        .values({
          pullId,
          authStatus: event.data.auth_status,
          sequence: 0,
          loginErrorMessage: null,
          options: event.data.options,
        })
        .onConflictDoNothing();
      return;
    }
    case "MONITORING_EVENTS":
      // One event per inbox row, claimed in monitoring_event_keys first (in one transaction with
      // the event): the events are partitioned by month, so a unique index of theirs would have
      // to hold `received_at` too.
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(monitoringEventKeys)
          .values({ inboxEventId, eventId: sql`nextval(pg_get_serial_sequence('monitoring_events', 'id'))` })
          .onConflictDoNothing()
          .returning({ eventId: monitoringEventKeys.eventId });
        if (!claimed) return;
        await tx.insert(monitoringEvents).values({
          id: claimed.eventId,
          inboxEventId,
          monitoringId: event.monitoring?.monitoring_id ?? null,
          pullId,
          type: event.data.type,
          changes: event.data.changes,
          documentIds: event.data.documents.map((d: string | { document_id: string }) =>
            typeof d === "string" ? d : d.document_id,
          ),
        });
      });
      return;
    default:
      return; // COMPLETE-like events need only the fetch that already happened
  }
}
