import "server-only";
import { and, desc, eq, gte, lt, ne, sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { auditEvents, type AuditAction, type AuditEventRow } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";

// The audit trail: written in the same transaction as the change it records, so one never
// exists without the other. The table refuses updates and deletes (see its migration).

/** Every kind of entry, for the trail's filter (pages read the schema's list through here). */
export { AUDIT_ACTIONS } from "@/db/schema";

export async function recordAudit(
  db: Db,
  actor: Actor | null,
  action: AuditAction,
  about: {
    pullId?: string | null;
    subjectUserId?: string | null;
    /** Every pull a read of many consumers showed (a list's CSV), for the incident-scope report. */
    pullIds?: string[];
    details?: Record<string, unknown>;
    /** When it happened: the database's clock unless the command was given one (the demo's history). */
    at?: Date;
  } = {},
): Promise<void> {
  await db.insert(auditEvents).values({
    ...(about.at ? { at: about.at } : {}),
    actorId: actor?.id ?? null,
    actorName: actor?.name ?? "Coverdesk",
    action,
    pullId: about.pullId ?? null,
    subjectUserId: about.subjectUserId ?? null,
    details: about.details ?? {},
    // The session and address the actor came through, when a request carried them: an
    // incident is scoped by them (lib/audit/incident-scope.ts).
    sessionId: actor?.sessionId ?? null,
    address: actor?.address ?? null,
    pullIds: about.pullIds && about.pullIds.length > 0 ? about.pullIds : null,
  });
}

const pullViewed: AuditAction = "PULL_VIEWED";

/**
 * A pull's page was shown to `actor`: who saw which consumer, from which session and address,
 * for the incident-scope report (./incident-scope.ts).
 */
export async function recordPullViewed(db: Db, actor: Actor, pullId: string): Promise<void> {
  await recordAudit(db, actor, pullViewed, { pullId });
}

export type AuditFilter = {
  pullId?: string;
  actorId?: string;
  action?: AuditAction;
  from?: Date;
  to?: Date;
  page?: number;
  /** Leave out the pull page's views (PULL_VIEWED): a pull's own history lists what was done to it. */
  withoutViews?: boolean;
};
export const AUDIT_PAGE_SIZE = 100;

export async function listAuditEvents(
  db: Db,
  filter: AuditFilter,
): Promise<{ rows: AuditEventRow[]; hasMore: boolean }> {
  const parts: SQL[] = [];
  if (filter.pullId) parts.push(eq(auditEvents.pullId, filter.pullId));
  if (filter.actorId) parts.push(eq(auditEvents.actorId, filter.actorId));
  if (filter.action) parts.push(eq(auditEvents.action, filter.action));
  if (filter.from) parts.push(gte(auditEvents.at, filter.from));
  if (filter.to) parts.push(lt(auditEvents.at, filter.to));
  if (filter.withoutViews) parts.push(ne(auditEvents.action, pullViewed));
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      actorId: auditEvents.actorId,
      actorName: auditEvents.actorName,
      action: auditEvents.action,
      pullId: auditEvents.pullId,
      subjectUserId: auditEvents.subjectUserId,
      details: auditEvents.details,
      sessionId: auditEvents.sessionId,
      address: auditEvents.address,
      pullIds: auditEvents.pullIds,
    })
    .from(auditEvents)
    .where(and(...parts))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset(((filter.page ?? 1) - 1) * AUDIT_PAGE_SIZE);
  return { rows: rows.slice(0, AUDIT_PAGE_SIZE), hasMore: rows.length > AUDIT_PAGE_SIZE };
}

const signedIn: AuditAction = "SIGNED_IN";
const signInFailed: AuditAction = "SIGN_IN_FAILED";

export type FailedSignIn = { at: Date; address: string | null; email: string | null };

const failedSignInOf = (row: { at: Date | string; address: string | null; email: string | null }): FailedSignIn => ({
  at: new Date(row.at),
  address: row.address,
  email: row.email,
});

/**
 * The failed sign-ins on one user's account since their sign-in before this one (at most the
 * last 30 days): what they are told after signing in. `total` counts them all; `recent` lists
 * the latest few.
 */
export async function failedSignInsSincePreviousSignIn(
  db: Db,
  userId: string,
  limit = 5,
): Promise<{ total: number; recent: FailedSignIn[] }> {
  const rows = await queryRows<{
    at: Date | string;
    address: string | null;
    email: string | null;
    total: number | string;
  }>(
    db,
    sql`with since as (
          select greatest(
            coalesce((select ${auditEvents.at} from ${auditEvents} where ${auditEvents.subjectUserId} = ${userId} and ${auditEvents.action} = ${signedIn}
                      order by ${auditEvents.at} desc offset 1 limit 1), '-infinity'),
            now() - interval '30 days') as t
        )
        select ${auditEvents.at}, ${auditEvents.details}->>'address' as address, ${auditEvents.details}->>'email' as email, count(*) over () as total
        from ${auditEvents}, since
        where ${auditEvents.subjectUserId} = ${userId} and ${auditEvents.action} = ${signInFailed} and ${auditEvents.at} > since.t
        order by ${auditEvents.at} desc, ${auditEvents.id} desc
        limit ${limit}`,
  );
  return { total: Number(rows[0]?.total ?? 0), recent: rows.map(failedSignInOf) };
}

/** The latest failed sign-ins on any account (or none), for admins. */
export async function recentFailedSignIns(db: Db, limit = 20): Promise<FailedSignIn[]> {
  const rows = await queryRows<{ at: Date | string; address: string | null; email: string | null }>(
    db,
    sql`select ${auditEvents.at}, ${auditEvents.details}->>'address' as address, ${auditEvents.details}->>'email' as email from ${auditEvents}
        where ${auditEvents.action} = ${signInFailed} order by ${auditEvents.at} desc, ${auditEvents.id} desc limit ${limit}`,
  );
  return rows.map(failedSignInOf);
}
