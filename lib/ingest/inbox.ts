import "server-only";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { EVENT_STATUSES, webhookEvents, type EventStatus } from "@/db/schema";
import { pageNumber } from "@/lib/url/page-number";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";

// The inbox as admins see it: filtered lists, counts by status, and putting failed events back
// in the queue. A retried event starts its attempts again from zero.

/** An event's states, for the inbox's filter and counts (pages read the schema's list through here). */
export { EVENT_STATUSES };

export const INBOX_PAGE_SIZE = 50;

const inboxFilterFields = {
  status: z.enum(EVENT_STATUSES),
  type: z.string().regex(/^[A-Z_]{1,40}$/),
  pull: z.uuid(),
  page: pageNumber(100_000),
} as const;
export type InboxFilter = { status?: EventStatus; type?: string; pull?: string; page: number };

/** The Events page's filters from its URL; a bad value is left out and named in `ignored`. */
export function parseInboxFilter(params: SearchParams): { filter: InboxFilter; ignored: string[] } {
  const { values, ignored } = parseSearchFields(inboxFilterFields, params);
  return { filter: { ...values, page: values.page ?? 1 }, ignored };
}

function where(filter: InboxFilter): SQL | undefined {
  return and(
    filter.status ? eq(webhookEvents.status, filter.status) : undefined,
    filter.type ? eq(webhookEvents.eventType, filter.type) : undefined,
    filter.pull ? eq(webhookEvents.pullId, filter.pull) : undefined,
  );
}

export async function listInboxEvents(db: Db, filter: InboxFilter) {
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: webhookEvents.id,
        eventType: webhookEvents.eventType,
        pullId: webhookEvents.pullId,
        status: webhookEvents.status,
        attempts: webhookEvents.attempts,
        lastError: webhookEvents.lastError,
        payload: webhookEvents.payload,
        receivedAt: webhookEvents.receivedAt,
        processedAt: webhookEvents.processedAt,
        nextAttemptAt: webhookEvents.nextAttemptAt,
      })
      .from(webhookEvents)
      .where(where(filter))
      .orderBy(desc(webhookEvents.id))
      .limit(INBOX_PAGE_SIZE)
      .offset((filter.page - 1) * INBOX_PAGE_SIZE),
    db.select({ value: count() }).from(webhookEvents).where(where(filter)),
  ]);
  return { rows, total: totals[0]?.value ?? 0 };
}
export type InboxRow = Awaited<ReturnType<typeof listInboxEvents>>["rows"][number];

export async function countInboxByStatus(db: Db): Promise<Record<EventStatus, number>> {
  const rows = await db
    .select({ status: webhookEvents.status, value: count() })
    .from(webhookEvents)
    .groupBy(webhookEvents.status);
  const counts = Object.fromEntries(EVENT_STATUSES.map((s) => [s, 0])) as Record<EventStatus, number>;
  for (const row of rows) counts[row.status] = row.value;
  return counts;
}

export async function listInboxEventTypes(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ type: webhookEvents.eventType })
    .from(webhookEvents)
    .orderBy(webhookEvents.eventType);
  return rows.map((r) => r.type);
}

const requeue = { status: "PENDING" as const, attempts: 0, lockedAt: null, lockedBy: null, processedAt: null };

/** The event a retry names. */
export const retryEventInputSchema = z.object({ eventId: z.coerce.number().int().positive() });

/** Puts one failed event back in the queue. False when it is not (or no longer) failed. */
export async function retryInboxEvent(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .update(webhookEvents)
    .set({ ...requeue, nextAttemptAt: new Date() })
    .where(and(eq(webhookEvents.id, id), eq(webhookEvents.status, "FAILED")))
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}

export async function retryAllFailedEvents(db: Db): Promise<number> {
  const rows = await db
    .update(webhookEvents)
    .set({ ...requeue, nextAttemptAt: new Date() })
    .where(eq(webhookEvents.status, "FAILED"))
    .returning({ id: webhookEvents.id });
  return rows.length;
}
