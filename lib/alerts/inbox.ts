import "server-only";
import { and, desc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { alerts, pulls, users, type AlertRow } from "@/db/schema";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, type CommandResult } from "@/lib/core/result";
import { visibleTo } from "@/lib/pulls/visibility";

// The alert inbox: each agent's alerts and the queue's (unassigned accounts); managers and
// admins may look at everyone's. A snoozed alert comes back on its own once its time is up.
// Whose an alert is follows its pull's current assignment (the pull-visibility rule of
// lib/pulls/visibility.ts), not whom it was raised for: after a claim or a reassignment the
// previous agent no longer reads, moves or gets it.

export const INBOX_VIEWS = ["open", "snoozed", "done"] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];
export const INBOX_WHOSE = ["mine", "queue", "everyone"] as const;
export type InboxWhose = (typeof INBOX_WHOSE)[number];

const PAGE = 100;

/** Open now: OPEN, or SNOOZED with its time up. */
const openNow = (now: Date): SQL =>
  or(eq(alerts.status, "OPEN"), and(eq(alerts.status, "SNOOZED"), lte(alerts.snoozedUntil, now))) as SQL;

function viewWhere(view: InboxView, now: Date): SQL {
  if (view === "open") return openNow(now);
  if (view === "snoozed") return and(eq(alerts.status, "SNOOZED"), sql`${alerts.snoozedUntil} > ${now}`) as SQL;
  return eq(alerts.status, "DONE");
}

/** The pulls whose alerts a user may read: agents their own and the queue's; managers their office's (or anyone's); admins anyone's. */
function readableWhere(user: Actor): SQL | undefined {
  return visibleTo(viewScope(user, "alerts:view"));
}

/** Which of the readable alerts a view shows, by the pull's current assignee. */
function whoseWhere(user: Actor, whose: InboxWhose): SQL | undefined {
  const readable = readableWhere(user);
  if (whose === "queue") return and(readable, isNull(pulls.assigneeId));
  if (whose === "everyone") return readable;
  // Mine: one's own and the queue's, of what one may read (a manager of an office: of the office).
  return and(readable, or(eq(pulls.assigneeId, user.id), isNull(pulls.assigneeId)));
}

export type InboxRow = Pick<
  AlertRow,
  | "id"
  | "kind"
  | "pullId"
  | "holderName"
  | "headline"
  | "details"
  | "status"
  | "snoozedUntil"
  | "createdAt"
  | "assigneeId"
> & { assigneeName: string | null };

export async function listAlerts(
  db: Db,
  user: Actor,
  { view, whose }: { view: InboxView; whose: InboxWhose },
  now = new Date(),
): Promise<InboxRow[]> {
  return db
    .select({
      id: alerts.id,
      kind: alerts.kind,
      pullId: alerts.pullId,
      holderName: alerts.holderName,
      headline: alerts.headline,
      details: alerts.details,
      status: alerts.status,
      snoozedUntil: alerts.snoozedUntil,
      createdAt: alerts.createdAt,
      assigneeId: pulls.assigneeId,
      assigneeName: users.name,
    })
    .from(alerts)
    .innerJoin(pulls, eq(pulls.pullId, alerts.pullId))
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(and(viewWhere(view, now), whoseWhere(user, whose)))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(PAGE);
}

/** The badge: alerts open now that are the user's or the queue's. */
export async function countOpenAlerts(db: Db, user: Actor, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(alerts)
    .innerJoin(pulls, eq(pulls.pullId, alerts.pullId))
    .where(and(openNow(now), whoseWhere(user, "mine")));
  return row?.n ?? 0;
}

export const ALERT_MOVES = ["done", "reopen", "snooze-1", "snooze-7"] as const;
export type AlertMove = (typeof ALERT_MOVES)[number];

/** One of the inbox's buttons on one alert. */
export const moveAlertInputSchema = z.object({
  alertId: z.coerce.number().int().positive(),
  move: z.enum(ALERT_MOVES, { message: "Choose done, snooze or reopen." }),
});

/** Mark an alert done, reopen it, or snooze it for a day or a week; only an alert the user may read. */
export async function moveAlert(
  db: Db,
  user: Actor,
  { alertId, move }: { alertId: number; move: string },
  now = new Date(),
): Promise<CommandResult> {
  if (!(ALERT_MOVES as readonly string[]).includes(move)) return invalid("Choose done, snooze or reopen.", "move");
  const readablePulls = readableWhere(user);
  const readable = readablePulls
    ? inArray(alerts.pullId, db.select({ pullId: pulls.pullId }).from(pulls).where(readablePulls))
    : undefined;
  const days = move === "snooze-1" ? 1 : move === "snooze-7" ? 7 : 0;
  const set =
    move === "done"
      ? { status: "DONE", doneAt: now, doneBy: user.id, snoozedUntil: null }
      : move === "reopen"
        ? { status: "OPEN", doneAt: null, doneBy: null, snoozedUntil: null }
        : { status: "SNOOZED", snoozedUntil: new Date(now.getTime() + days * 86_400_000) };
  const updated = await db
    .update(alerts)
    .set(set)
    .where(and(eq(alerts.id, alertId), readable))
    .returning({ id: alerts.id });
  return updated.length > 0 ? { ok: true } : notFound("That alert");
}
