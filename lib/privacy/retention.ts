import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { retentionSchedule } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { typedNumber } from "@/lib/core/typed-number";
import {
  DEFAULT_RETENTION_SCHEDULE,
  RETENTION_KIND_INFO,
  RETENTION_KINDS,
  type RetentionKind,
  type RetentionSchedule,
} from "./retention-kinds";

// The retention schedule (db/schema/privacy.ts `retention_schedule`): a period in months, or
// Keep, per kind of record. Read with its defaults; a row edited by hand out of its bounds reads
// as its default, never as "dispose of everything at once".

export { DEFAULT_RETENTION_SCHEDULE, RETENTION_KIND_INFO, RETENTION_KINDS };
export type { RetentionKind, RetentionSchedule };

const periodMessage = (kind: RetentionKind) => {
  const { label, minMonths, maxMonths } = RETENTION_KIND_INFO[kind];
  return `${label}: choose Keep, or a whole number of months from ${minMonths} to ${maxMonths}.`;
};

/** One kind's period as a caller passes it: months (a number, or text of one), or null for Keep. */
const periodSchema = (kind: RetentionKind) => {
  const { minMonths, maxMonths } = RETENTION_KIND_INFO[kind];
  const message = periodMessage(kind);
  return typedNumber(z.number({ error: message }).int(message).min(minMonths, message).max(maxMonths, message));
};

/** What an admin may save: every kind's period (null: Keep). */
export const retentionScheduleSchema = z.object({
  PROSPECTS: periodSchema("PROSPECTS").nullable(),
  LOST_DEALS: periodSchema("LOST_DEALS").nullable(),
  WON_CLIENTS: periodSchema("WON_CLIENTS").nullable(),
  INBOX_BODIES: periodSchema("INBOX_BODIES").nullable(),
  AUDIT_TRAIL: periodSchema("AUDIT_TRAIL").nullable(),
} satisfies Record<RetentionKind, z.ZodType>);

/** One kind's period as the page's form sends it (`PROSPECTS.mode`, `PROSPECTS.months`). */
const periodFieldSchema = (kind: RetentionKind) => {
  const message = periodMessage(kind);
  const months = periodSchema(kind);
  return z
    .object(
      {
        mode: z.enum(["MONTHS", "KEEP"], { message }),
        // Read only when the mode is MONTHS: a number left in the box beside Keep is not an error.
        months: z.unknown().optional(),
      },
      { error: message },
    )
    .transform((value, context): number | null => {
      if (value.mode === "KEEP") return null;
      const parsed = months.safeParse(value.months);
      if (parsed.success) return parsed.data;
      context.addIssue({ code: "custom", message, path: ["months"] });
      return z.NEVER;
    });
};

/** The page's form, read into the schedule: per kind, Keep or Dispose after N months. */
export const retentionScheduleFormSchema = z.object({
  PROSPECTS: periodFieldSchema("PROSPECTS"),
  LOST_DEALS: periodFieldSchema("LOST_DEALS"),
  WON_CLIENTS: periodFieldSchema("WON_CLIENTS"),
  INBOX_BODIES: periodFieldSchema("INBOX_BODIES"),
  AUDIT_TRAIL: periodFieldSchema("AUDIT_TRAIL"),
} satisfies Record<RetentionKind, z.ZodType>);

/** A stored period, or the kind's default when the row is missing or out of bounds. */
function storedPeriod(kind: RetentionKind, months: number | null | undefined): number | null {
  if (months === undefined) return DEFAULT_RETENTION_SCHEDULE[kind];
  if (months === null) return null;
  const { minMonths, maxMonths } = RETENTION_KIND_INFO[kind];
  return Number.isInteger(months) && months >= minMonths && months <= maxMonths
    ? months
    : DEFAULT_RETENTION_SCHEDULE[kind];
}

export async function getRetentionSchedule(db: Db): Promise<RetentionSchedule> {
  const rows = await db
    .select({ kind: retentionSchedule.kind, months: retentionSchedule.months })
    .from(retentionSchedule);
  const stored = new Map(rows.map((row) => [row.kind, row.months]));
  return Object.fromEntries(
    RETENTION_KINDS.map((kind) => [kind, storedPeriod(kind, stored.has(kind) ? stored.get(kind) : undefined)]),
  ) as RetentionSchedule;
}

/** Saves the schedule after checking it; the audit trail records who, what it was and what it is. */
export async function saveRetentionSchedule(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "retention:manage")) return forbidden("Only an admin can change the retention schedule.");
  const parsed = retentionScheduleSchema.safeParse(input, { error: () => "Check the schedule and try again." });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the schedule and try again.", issue?.path.join("."));
  }
  const schedule: RetentionSchedule = parsed.data;
  await db.transaction(async (tx) => {
    const before = await getRetentionSchedule(tx);
    const now = new Date();
    for (const kind of RETENTION_KINDS) {
      const values = { months: schedule[kind], updatedAt: now, updatedBy: actor.id };
      await tx
        .insert(retentionSchedule)
        .values({ kind, ...values })
        .onConflictDoUpdate({ target: retentionSchedule.kind, set: values });
    }
    await recordAudit(tx, actor, "RETENTION_SCHEDULE_CHANGED", { details: { before, after: schedule } });
  });
  return { ok: true };
}
