import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitoringEvents, monitorings, pullAuthStates } from "@/db/schema";
import { completeReconnectPages } from "@/lib/monitoring/reconnect-page";
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
    .values({ monitoringId, initialPullId: uuidOrNull(event.monitoring?.initial_pull_id), accountIdentifier: event.account_identifier, latestPullId: pullId })
    .onConflictDoUpdate({
      target: monitorings.monitoringId,
      set: {
        initialPullId: sql`coalesce(${monitorings.initialPullId}, excluded.initial_pull_id)`,
        accountIdentifier: sql`coalesce(excluded.account_identifier, ${monitorings.accountIdentifier})`,
        updatedAt: sql`now()`,
      },
    });
  // The latest pull only moves forward: a late event about an older refresh leaves it alone.
  await db.execute(sql`
    update monitorings set latest_pull_id = ${pullId}, updated_at = now()
    where monitoring_id = ${monitoringId}
      and latest_pull_id is distinct from ${pullId}
      and coalesce((select service_created_at from pulls where pull_id = ${pullId}), now())
          >= coalesce((select service_created_at from pulls where pull_id = monitorings.latest_pull_id), '-infinity'::timestamptz)`);
}

async function recordAuthStatus(db: Db, pullId: string, data: { auth_status: string | null; login_error_message: string | null; sequence: number | null; options: unknown }): Promise<void> {
  const sequence = data.sequence ?? 0;
  await db
    .insert(pullAuthStates)
    .values({ pullId, authStatus: data.auth_status, sequence, loginErrorMessage: data.login_error_message, options: data.options })
    .onConflictDoUpdate({
      target: pullAuthStates.pullId,
      set: { authStatus: data.auth_status, sequence, loginErrorMessage: data.login_error_message, options: data.options, updatedAt: sql`now()` },
      // A delivery older than what we hold (lower sequence) must not move the login backwards.
      setWhere: lte(pullAuthStates.sequence, sequence),
    });
}

async function clearReconnect(db: Db, pullId: string): Promise<void> {
  await db
    .update(monitorings)
    .set({ reconnectRequestedAt: null, reconnectPullId: null, reconnectAuthStatus: null, reconnectUrl: null, reconnectToken: null, updatedAt: new Date() })
    .where(eq(monitorings.reconnectPullId, pullId));
}

export async function applyEventEffects(db: Db, inboxEventId: number, payload: unknown): Promise<void> {
  const parsed = parseWebhookEvent(payload);
  if (!parsed.ok) return; // the receiver checked the envelope; nothing more to learn here
  const event = parsed.value;
  const pullId = uuidOrNull(event.pull_id);
  if (!pullId) return;
  await linkMonitoring(db, event, pullId);
  if (!event.is_known_event) return;

  switch (event.event_type) {
    case "AUTH_STATUS":
      await recordAuthStatus(db, pullId, event.data);
      if (event.data.auth_status === "SUCCESS") {
        await clearReconnect(db, pullId);
        await completeReconnectPages(db, pullId);
      }
      return;
    case "COMPLETE":
      await clearReconnect(db, pullId);
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
      // A redelivery of an older request must not replace a newer one for another pull.
      await db
        .update(monitorings)
        .set(reconnect)
        .where(and(eq(monitorings.monitoringId, monitoringId), or(isNull(monitorings.reconnectPullId), eq(monitorings.reconnectPullId, pullId), sql`${monitorings.reconnectRequestedAt} < now()`)));
      // Where the login stopped is the first step of the reconnect page (with its options);
      // sequence 0, so any AUTH_STATUS of the consumer's answers replaces it.
      await db
        .insert(pullAuthStates)
        .values({ pullId, authStatus: event.data.auth_status, sequence: 0, loginErrorMessage: null, options: event.data.options })
        .onConflictDoNothing();
      return;
    }
    case "MONITORING_EVENTS":
      await db
        .insert(monitoringEvents)
        .values({ inboxEventId, monitoringId: event.monitoring?.monitoring_id ?? null, pullId, type: event.data.type, changes: event.data.changes, documentIds: event.data.documents.map((d: string | { document_id: string }) => (typeof d === "string" ? d : d.document_id)) })
        .onConflictDoNothing();
      return;
    default:
      return; // COMPLETE-like events need only the fetch that already happened
  }
}
