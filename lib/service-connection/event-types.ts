import "server-only";
import { count, eq, max } from "drizzle-orm";
import { monitorings, servicingRequests, webhookEvents } from "@/db/schema";
import type { Db } from "@/db/types";
import { API_SETTABLE_WEBHOOK_EVENT_TYPES, REGISTERED_WEBHOOK_EVENT_TYPES } from "@/lib/service/schemas";

// Which webhook events reach Coverdesk, one row a type: whether a registration asks for it, when
// one last arrived, and whether Coverdesk needs one it has never had. Only five types can be set
// through the API; the rest are switched on on the service's dashboard, and the service may not
// list those on a registration, so what has arrived is the evidence that counts.

/** What Coverdesk has that needs a dashboard-only type; the warning names it. */
export type EventNeed = { reason: "monitorings" | "servicing"; count: number };

export type EventTypeView = {
  eventType: string;
  /** Switched on only on the service's dashboard (the API cannot set it). */
  dashboardOnly: boolean;
  /**
   * On an active registration of Coverdesk's own address, only on another active registration,
   * on none the service lists, or null when the service could not list them.
   */
  enabledOn: "ours" | "other" | "none" | null;
  lastReceivedAt: Date | null;
  /** Set when Coverdesk needs this type and has never received one. */
  missing: EventNeed | null;
};

type ListedRegistration = { url: string; isActive: boolean | null; eventTypes: readonly string[] };

/** Dashboard-only types Coverdesk acts on, and what makes each needed. */
const NEEDED_BY: Partial<Record<string, EventNeed["reason"]>> = {
  MONITORING_RECONNECT: "monitorings",
  MONITORING_EVENTS: "monitorings",
  ERROR: "monitorings",
  DATA_UPDATED: "monitorings",
  SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION: "servicing",
};

/** When each known event type last reached the inbox (absent: never); one index probe a type. */
export async function lastReceivedByEventType(db: Db): Promise<Map<string, Date>> {
  const received = new Map<string, Date>();
  await Promise.all(
    REGISTERED_WEBHOOK_EVENT_TYPES.map(async (eventType) => {
      const [row] = await db
        .select({ at: max(webhookEvents.receivedAt) })
        .from(webhookEvents)
        .where(eq(webhookEvents.eventType, eventType));
      if (row?.at) received.set(eventType, row.at);
    }),
  );
  return received;
}

/** How much Coverdesk has that dashboard-only events serve: active monitorings, servicing requests. */
export async function countEventNeeds(db: Db): Promise<Record<EventNeed["reason"], number>> {
  const [[active], [servicing]] = await Promise.all([
    db.select({ n: count() }).from(monitorings).where(eq(monitorings.status, "ACTIVE")),
    db.select({ n: count() }).from(servicingRequests),
  ]);
  return { monitorings: active?.n ?? 0, servicing: servicing?.n ?? 0 };
}

export function describeEventTypes(input: {
  hookUrl: string;
  registrations: readonly ListedRegistration[] | null;
  lastReceived: ReadonlyMap<string, Date>;
  needs: Record<EventNeed["reason"], number>;
}): EventTypeView[] {
  const active = input.registrations?.filter((r) => r.isActive !== false) ?? null;
  return REGISTERED_WEBHOOK_EVENT_TYPES.map((eventType): EventTypeView => {
    const asking = active?.filter((r) => r.eventTypes.includes(eventType)) ?? null;
    const lastReceivedAt = input.lastReceived.get(eventType) ?? null;
    const reason = NEEDED_BY[eventType];
    const needed = reason && input.needs[reason] > 0 ? { reason, count: input.needs[reason] } : null;
    return {
      eventType,
      dashboardOnly: !(API_SETTABLE_WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType),
      enabledOn:
        asking === null
          ? null
          : asking.some((r) => r.url === input.hookUrl)
            ? "ours"
            : asking.length > 0
              ? "other"
              : "none",
      lastReceivedAt,
      missing: needed && lastReceivedAt === null ? needed : null,
    };
  });
}
