import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { monitorings } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedMessage, ServiceError } from "@/lib/service/errors";
import {
  disableMonitoring,
  enableMonitoring,
  getMonitoring,
  monitoringIntervalSchema,
  refreshMonitoring,
  updateMonitoring,
} from "@/lib/service/monitorings-api";
import type { Monitoring } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, type CommandFailure, type CommandResult } from "@/lib/core/result";

// Turning monitoring on and off for a pull's account, through the service's monitoring
// endpoints. Our mirror (the `monitorings` table) is written only from the service's answers,
// so it never claims a state the service refused. Each refresh is billed like a pull.

/** "Every 3 months" as typed in the form, to the ISO duration the service takes. */
export const intervalFields = {
  every: z.coerce
    .number({ error: "Give the interval as a number." })
    .int("Use a whole number.")
    .min(1, "Use a number of at least 1.")
    .max(120),
  unit: z.enum(["D", "M", "Y"], { message: "Choose days, months or years." }),
};

export const intervalInputSchema = z
  .object(intervalFields)
  .transform(({ every, unit }) => `P${every}${unit}`)
  .pipe(monitoringIntervalSchema);

const SERVICE_MESSAGES: Record<string, string> = {
  PULL_TOO_OLD: "The service will not monitor a pull this old. Ask the consumer to link the account again.",
  PULL_NOT_SUCCESS: "Only an account that linked successfully can be monitored.",
  PULL_NOT_SUPPORTED: "The service cannot monitor this kind of account.",
  INTERVAL_TOO_SHORT: "Monitoring can refresh at most every 30 days.",
  INVALID_INTERVAL: "The service did not accept that interval.",
  INVALID_STOP_AFTER: "The stop date must be in the future.",
  CURRENTLY_REFRESHING: "A refresh is already running for this account.",
  MONITORING_INACTIVE: "Monitoring is stopped for this account; turn it on first.",
};

function serviceFailure(error: unknown): CommandFailure {
  if (error instanceof ServiceError) {
    return {
      ok: false,
      code: "CONFLICT",
      message:
        rateLimitedMessage(error) ??
        SERVICE_MESSAGES[error.code] ??
        `The service refused (${error.code}). Nothing was changed.`,
    };
  }
  throw error;
}

async function mirror(
  db: Db,
  monitoring: Monitoring,
  extra: { initialPullId?: string; accountIdentifier?: string | null; origin?: "COVERDESK" } = {},
): Promise<void> {
  const values = {
    ...(extra.origin ? { origin: extra.origin } : {}),
    status: monitoring.status,
    interval: monitoring.interval,
    nextPullDate: monitoring.next_pull_date ? new Date(monitoring.next_pull_date) : null,
    stopAfterDate: monitoring.stop_after_date ? new Date(monitoring.stop_after_date) : null,
    latestPullId: monitoring.latest_pull_id,
    updatedAt: new Date(),
  };
  await db
    .insert(monitorings)
    .values({
      monitoringId: monitoring.monitoring_id,
      initialPullId: extra.initialPullId ?? null,
      accountIdentifier: extra.accountIdentifier ?? null,
      ...values,
    })
    .onConflictDoUpdate({ target: monitorings.monitoringId, set: values });
}

const stopAfterSchema = z.iso.date("Give the stop date as a date.").optional();

/** The monitoring a form acts on, on the pull it shows. */
export const monitoringInputSchema = z.object({
  pullId: z.uuid(),
  monitoringId: z.string().trim().min(1).max(200),
});

/** Turning monitoring on: the pull, the interval, and when to stop (optional). */
export const enableMonitoringInputSchema = z.object({
  pullId: z.uuid(),
  ...intervalFields,
  stopAfter: stopAfterSchema,
});

/** A new interval for a monitoring. */
export const changeMonitoringInputSchema = monitoringInputSchema.extend(intervalFields);

export async function enablePullMonitoring(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullId: string; every: unknown; unit: unknown; stopAfter?: string },
): Promise<CommandResult<{ monitoringId: string }>> {
  const detail = await getViewablePull(db, actor, input.pullId);
  if (!detail) return notFound();
  if (!can(actor, "monitoring:manage")) return forbidden("Only managers and admins can turn monitoring on.");
  const interval = intervalInputSchema.safeParse({ every: input.every, unit: input.unit });
  if (!interval.success) return invalid(interval.error.issues[0]?.message ?? "Check the interval.", "every");
  const stopAfter = stopAfterSchema.safeParse(input.stopAfter || undefined);
  if (!stopAfter.success) return invalid("Give the stop date as a date.", "stopAfter");
  try {
    const { value } = await enableMonitoring(service, {
      pull_id: input.pullId,
      interval: interval.data,
      stop_after_date: stopAfter.data ? `${stopAfter.data}T00:00:00Z` : undefined,
    });
    await mirror(db, value, { initialPullId: input.pullId, accountIdentifier: detail.accountKey, origin: "COVERDESK" });
    await recordAudit(db, actor, "MONITORING_CHANGED", {
      pullId: input.pullId,
      details: { change: `turned monitoring on, every ${interval.data}`, monitoringId: value.monitoring_id },
    });
    return { ok: true as const, monitoringId: value.monitoring_id };
  } catch (error) {
    return serviceFailure(error);
  }
}

async function knownMonitoring(db: Db, actor: Actor, pullId: string, monitoringId: string) {
  const detail = await getViewablePull(db, actor, pullId);
  if (!detail) return null;
  const [row] = await db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
  const belongs =
    row &&
    (row.initialPullId === pullId ||
      row.latestPullId === pullId ||
      (row.accountIdentifier !== null && row.accountIdentifier === detail.accountKey));
  return belongs ? row : null;
}

export async function changePullMonitoring(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullId: string; monitoringId: string; every: unknown; unit: unknown },
): Promise<CommandResult> {
  if (!(await knownMonitoring(db, actor, input.pullId, input.monitoringId))) return notFound("That monitoring");
  if (!can(actor, "monitoring:manage")) return forbidden("Only managers and admins can change monitoring.");
  const interval = intervalInputSchema.safeParse({ every: input.every, unit: input.unit });
  if (!interval.success) return invalid(interval.error.issues[0]?.message ?? "Check the interval.", "every");
  try {
    const { value } = await updateMonitoring(service, input.monitoringId, { interval: interval.data });
    await mirror(db, value);
    await recordAudit(db, actor, "MONITORING_CHANGED", {
      pullId: input.pullId,
      details: { change: `set monitoring to every ${interval.data}`, monitoringId: input.monitoringId },
    });
    return { ok: true as const };
  } catch (error) {
    return serviceFailure(error);
  }
}

export async function stopPullMonitoring(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullId: string; monitoringId: string },
): Promise<CommandResult> {
  if (!(await knownMonitoring(db, actor, input.pullId, input.monitoringId))) return notFound("That monitoring");
  if (!can(actor, "monitoring:manage")) return forbidden("Only managers and admins can turn monitoring off.");
  try {
    const { value } = await disableMonitoring(service, input.monitoringId);
    await mirror(db, value);
    await recordAudit(db, actor, "MONITORING_CHANGED", {
      pullId: input.pullId,
      details: { change: "turned monitoring off", monitoringId: input.monitoringId },
    });
    return { ok: true as const };
  } catch (error) {
    return serviceFailure(error);
  }
}

export async function refreshPullNow(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullId: string; monitoringId: string },
): Promise<CommandResult<{ newPullId: string }>> {
  if (!(await knownMonitoring(db, actor, input.pullId, input.monitoringId))) return notFound("That monitoring");
  if (!can(actor, "monitoring:manage")) return forbidden("Only managers and admins can start a refresh.");
  try {
    const newPullId = await refreshMonitoring(service, input.monitoringId);
    const { value } = await getMonitoring(service, input.monitoringId);
    await mirror(db, value.monitoring);
    await recordAudit(db, actor, "MONITORING_CHANGED", {
      pullId: input.pullId,
      details: { change: "started a refresh (billed like a pull)", monitoringId: input.monitoringId, newPullId },
    });
    return { ok: true as const, newPullId };
  } catch (error) {
    return serviceFailure(error);
  }
}
