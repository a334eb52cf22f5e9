import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import { getPullMonitoring } from "@/lib/monitoring/pull-monitoring";
import { getPullDetail } from "@/lib/pulls/queries";
import type { ServiceConfig } from "@/lib/service/client";
import type { Actor } from "@/lib/core/actor";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";
import { enablePullMonitoring, intervalInputSchema, stopPullMonitoring } from "./commands";

// Monitoring for a selection of pulls: one service call per pull, so some may succeed while
// the service refuses others (too old, not successful); the answer counts both and names why.

const MAX_BULK = 100;
const idsSchema = z
  .array(z.uuid())
  .min(1, "Select at least one pull.")
  .max(MAX_BULK, `Select at most ${MAX_BULK} pulls at once.`);

export type BulkOutcome = { done: number; refused: number; reasons: string[] };

export async function bulkMonitoring(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullIds: unknown; turnOn: boolean; every?: unknown; unit?: unknown },
): Promise<CommandResult<BulkOutcome>> {
  if (!can(actor, "monitoring:manage")) return forbidden("Only managers and admins can change monitoring.");
  const ids = idsSchema.safeParse(input.pullIds);
  if (!ids.success) return invalid(ids.error.issues[0]?.message ?? "Check the selection.", "pullIds");
  if (input.turnOn) {
    const interval = intervalInputSchema.safeParse({ every: input.every, unit: input.unit });
    if (!interval.success) return invalid(interval.error.issues[0]?.message ?? "Check the interval.", "every");
  }
  const outcome: BulkOutcome = { done: 0, refused: 0, reasons: [] };
  for (const pullId of new Set(ids.data)) {
    let result: CommandResult;
    if (input.turnOn) {
      result = await enablePullMonitoring(db, service, actor, { pullId, every: input.every, unit: input.unit });
    } else {
      const detail = await getPullDetail(db, pullId);
      const monitoring = detail ? await getPullMonitoring(db, { pullId, accountIdentifier: detail.accountKey }) : null;
      result =
        monitoring?.status === "ACTIVE"
          ? await stopPullMonitoring(db, service, actor, { pullId, monitoringId: monitoring.monitoringId })
          : { ok: false, code: "CONFLICT", message: "It is not monitored." };
    }
    if (result.ok) outcome.done++;
    else {
      outcome.refused++;
      if (!outcome.reasons.includes(result.message)) outcome.reasons.push(result.message);
    }
  }
  return { ok: true as const, ...outcome };
}
