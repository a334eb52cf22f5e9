import "server-only";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { auditEvents } from "@/db/schema";
import { parseSearchFields, type SearchParams } from "@/lib/url/search-params";
import { countDisposalDue, disposalRunAt, nextDisposalRun, type DisposalCounts } from "@/lib/privacy/disposal";
import { listLegalHolds, type HeldItem } from "@/lib/privacy/legal-holds";
import { getRetentionSchedule } from "@/lib/privacy/retention";
import type { RetentionSchedule } from "@/lib/privacy/retention-kinds";

// Everything the retention page (app/(app)/admin/retention/page.tsx) shows: the schedule, the
// dry run for the next scheduled run (or for the run on a day the admin names), the standing
// legal holds, and the last runs as the audit trail recorded them.

/** How far ahead the dry run may look: the longest period an admin may set. */
const LOOK_AHEAD_DAYS = 366 * 20;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

export type RetentionPage = {
  schedule: RetentionSchedule;
  /** The run the dry run counts for, and whether the admin chose its day. */
  runAt: Date;
  chosenDay: string | null;
  /** A day asked for that is not one (or in the past, or too far ahead): the next run is shown instead. */
  ignoredDay: boolean;
  due: DisposalCounts;
  holds: HeldItem[];
  lastRuns: Array<{ at: Date; details: unknown }>;
};

export async function loadRetentionPage(db: Db, params: SearchParams, now: Date = new Date()): Promise<RetentionPage> {
  const { values, ignored } = parseSearchFields({ on: isoDay }, params);
  const next = nextDisposalRun(now);
  const asked = values.on ? disposalRunAt(values.on) : null;
  const inRange = asked !== null && asked >= next && asked.getTime() - now.getTime() <= LOOK_AHEAD_DAYS * 86_400_000;
  const runAt = inRange && asked ? asked : next;
  const schedule = await getRetentionSchedule(db);
  const [due, holds, lastRuns] = await Promise.all([
    countDisposalDue(db, { asOf: runAt, schedule }),
    listLegalHolds(db),
    db
      .select({ at: auditEvents.at, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "RETENTION_DISPOSAL_RUN"))
      .orderBy(desc(auditEvents.at))
      .limit(5),
  ]);
  return {
    schedule,
    runAt,
    chosenDay: inRange ? (values.on ?? null) : null,
    ignoredDay: ignored.includes("on") || (values.on !== undefined && !inRange),
    due,
    holds,
    lastRuns,
  };
}
