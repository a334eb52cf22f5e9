import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { auditEvents, type AuditAction, type AuditEventRow } from "@/db/schema";
import type { Actor } from "./actor";

// The audit trail: written in the same transaction as the change it records, so one never
// exists without the other. The table refuses updates and deletes (see its migration).

export async function recordAudit(
  db: Db,
  actor: Actor | null,
  action: AuditAction,
  about: { pullId?: string | null; subjectUserId?: string | null; details?: Record<string, unknown> } = {},
): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: actor?.id ?? null,
    actorName: actor?.name ?? "Coverdesk",
    action,
    pullId: about.pullId ?? null,
    subjectUserId: about.subjectUserId ?? null,
    details: about.details ?? {},
  });
}

export type AuditFilter = { pullId?: string; actorId?: string; action?: AuditAction; from?: Date; to?: Date; page?: number };
export const AUDIT_PAGE_SIZE = 100;

export async function listAuditEvents(db: Db, filter: AuditFilter): Promise<{ rows: AuditEventRow[]; hasMore: boolean }> {
  const parts: SQL[] = [];
  if (filter.pullId) parts.push(eq(auditEvents.pullId, filter.pullId));
  if (filter.actorId) parts.push(eq(auditEvents.actorId, filter.actorId));
  if (filter.action) parts.push(eq(auditEvents.action, filter.action));
  if (filter.from) parts.push(gte(auditEvents.at, filter.from));
  if (filter.to) parts.push(lt(auditEvents.at, filter.to));
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...parts))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset(((filter.page ?? 1) - 1) * AUDIT_PAGE_SIZE);
  return { rows: rows.slice(0, AUDIT_PAGE_SIZE), hasMore: rows.length > AUDIT_PAGE_SIZE };
}
