import type { SandboxContext } from "../context";
import type { SandboxPull } from "../data/pulls";
import { addInterval, intervalDays, MIN_INTERVAL_DAYS, parseInterval } from "./interval";
import type { Scenario } from "./scenarios";
import { flowState, type MonitoringRecord } from "./state";

// Monitorings as records (service-notes, "Monitorings"): enabling one on a pull, changing its
// schedule, stopping it, and how each of its pulls stands. Refreshes live in refresh.ts.

/** Credentials older than this are not trusted to log in unattended. */
export const MAX_PULL_AGE_DAYS = 90;

const WORKING = new Set(["STARTED", "QUEUED", "PROCESSING", "GETTING_CONSUMERS", "PULLING_DATA"]);
const WAITING = new Set(["NOT_AUTHENTICATED", "IDENTITY_VERIFICATION_OPTIONS", "IDENTITY_VERIFICATION"]);

export function monitoringOfPull(ctx: SandboxContext, pullId: string): MonitoringRecord | null {
  for (const record of flowState(ctx).monitorings.values()) if (record.pullIds.includes(pullId)) return record;
  return null;
}

/** The `monitoring` of a webhook body; null when the pull is not part of a monitored account. */
export function webhookMonitoring(
  ctx: SandboxContext,
  pullId: string,
): { initial_pull_id: string; monitoring_id: string } | null {
  const record = monitoringOfPull(ctx, pullId);
  return record ? { initial_pull_id: record.initial_pull_id, monitoring_id: record.monitoring_id } : null;
}

/** The monitoring as the service serves it (the documented fields, plus a few it also sends). */
export function servedMonitoring(record: MonitoringRecord): Record<string, unknown> {
  const {
    monitoring_id,
    initial_pull_id,
    latest_pull_id,
    account_identifier,
    status,
    next_pull_date,
    interval,
    stop_after_date,
    created_at,
  } = record;
  return {
    monitoring_id,
    latest_pull_id,
    status,
    next_pull_date,
    interval,
    stop_after_date,
    initial_pull_id,
    account_identifier,
    created_at,
  };
}

/** A refresh is under way while the latest pull is being worked on (not while it waits for the consumer). */
export function isRefreshing(ctx: SandboxContext, record: MonitoringRecord): boolean {
  return WORKING.has(ctx.state.pulls.get(record.latest_pull_id)?.status ?? "");
}

/** Each pull of the account, newest first, with where it stands for the monitoring. */
export function pullSummaries(ctx: SandboxContext, record: MonitoringRecord): Array<Record<string, unknown>> {
  return [...record.pullIds].reverse().flatMap((pullId) => {
    const pull = ctx.state.pulls.get(pullId);
    if (!pull) return [];
    const monitoringStatus = WORKING.has(pull.status)
      ? "PROCESSING"
      : WAITING.has(pull.status)
        ? pullId === record.latest_pull_id
          ? "WAITING_FOR_USER"
          : "EXPIRED"
        : "COMPLETED";
    return [
      { pull_id: pull.pull_id, status: pull.status, created_at: pull.created_at, monitoring_status: monitoringStatus },
    ];
  });
}

export type Failure = { ok: false; code: string; message: string };
type Result = { ok: true; record: MonitoringRecord } | Failure;
const failure = (code: string, message: string): Failure => ({ ok: false, code, message });

function afterNow(ctx: SandboxContext, iso: string | null | undefined): boolean {
  return iso === null || iso === undefined || Date.parse(iso) > ctx.clock.now().getTime();
}

/**
 * The service refuses a next refresh sooner than 30 days after the account's latest pull
 * (service-notes, "Monitorings"; the error code is not published, see README).
 */
const MIN_REFRESH_GAP_DAYS = 30;
function tooSoonAfterLatestPull(ctx: SandboxContext, latestPullId: string, next: string | null | undefined): boolean {
  const latest = ctx.state.pulls.get(latestPullId)?.created_at;
  if (next === null || next === undefined || latest === undefined) return false;
  return Date.parse(next) < Date.parse(latest) + MIN_REFRESH_GAP_DAYS * 86_400_000;
}
const tooSoonMessage = `next_pull_date: at least ${MIN_REFRESH_GAP_DAYS} days after the latest pull`;

export type EnableInput = {
  pull_id: string;
  interval: string;
  next_pull_date?: string | null;
  stop_after_date?: string | null;
};

/** POST /monitorings: a monitoring on a recent, successful PULLING_DATA pull. */
export function enableMonitoring(ctx: SandboxContext, input: EnableInput, scenario: Scenario | null): Result {
  const pull: SandboxPull | undefined = ctx.state.pulls.get(input.pull_id);
  if (!pull) return failure("INVALID_INPUT", "pull_id: no pull with this id");
  if (pull.type !== "PULLING_DATA" || pull.parent_pull_id)
    return failure("PULL_NOT_SUPPORTED", "Only top-level pulls of type PULLING_DATA can be monitored.");
  if (pull.status !== "SUCCESS")
    return failure("PULL_NOT_SUCCESS", `The pull is ${pull.status}; only a SUCCESS pull can be monitored.`);
  const now = ctx.clock.now();
  if (now.getTime() - Date.parse(pull.created_at) > MAX_PULL_AGE_DAYS * 86_400_000)
    return failure("PULL_TOO_OLD", `The pull is older than ${MAX_PULL_AGE_DAYS} days; link the account again.`);
  const interval = parseInterval(input.interval);
  if (!interval || intervalDays(interval) < MIN_INTERVAL_DAYS)
    return failure(
      "INVALID_INPUT",
      `interval: an ISO-8601 duration (P45D, P1M, P1Y) of at least ${MIN_INTERVAL_DAYS} days`,
    );
  if (!afterNow(ctx, input.stop_after_date)) return failure("INVALID_INPUT", "stop_after_date: must be in the future");
  const existing = monitoringOfPull(ctx, pull.pull_id);
  if (tooSoonAfterLatestPull(ctx, existing?.latest_pull_id ?? pull.pull_id, input.next_pull_date))
    return failure("INVALID_INPUT", tooSoonMessage);
  const next = input.next_pull_date ?? addInterval(now, interval).toISOString();

  if (existing) {
    // Enabling again re-activates the account's monitoring with the new schedule.
    Object.assign(existing, {
      status: "ACTIVE",
      interval: input.interval,
      next_pull_date: next,
      stop_after_date: input.stop_after_date ?? null,
    });
    return { ok: true, record: existing };
  }
  const state = flowState(ctx);
  const record: MonitoringRecord = {
    monitoring_id: state.random.uuid(),
    initial_pull_id: pull.pull_id,
    latest_pull_id: pull.pull_id,
    account_identifier: pull.account_identifier,
    status: "ACTIVE",
    next_pull_date: next,
    interval: input.interval,
    stop_after_date: input.stop_after_date ?? null,
    created_at: now.toISOString(),
    pullIds: [pull.pull_id],
    basePullId: pull.pull_id,
    scenario,
    refreshCount: 0,
    events: { previous_pull_id: null, latest_pull_id: pull.pull_id, events: [] },
  };
  state.monitorings.set(record.monitoring_id, record);
  return { ok: true, record };
}

export type PatchInput = {
  interval?: string;
  next_pull_date?: string | null;
  stop_after_date?: string | null;
  status?: "ACTIVE" | "STOPPED";
};

/** PATCH /monitorings/:id: every field checked before any is changed. */
export function patchMonitoring(ctx: SandboxContext, record: MonitoringRecord, input: PatchInput): Result {
  let interval = parseInterval(record.interval);
  if (input.interval !== undefined) {
    interval = parseInterval(input.interval);
    if (!interval)
      return failure(
        "INVALID_INTERVAL",
        "interval: an ISO-8601 duration of days, weeks, months or years (P45D, P1M, P1Y)",
      );
    if (intervalDays(interval) < MIN_INTERVAL_DAYS)
      return failure("INTERVAL_TOO_SHORT", `interval: at least ${MIN_INTERVAL_DAYS} days`);
  }
  if (input.stop_after_date !== undefined && !afterNow(ctx, input.stop_after_date))
    return failure("INVALID_STOP_AFTER", "stop_after_date: must be in the future");
  if (tooSoonAfterLatestPull(ctx, record.latest_pull_id, input.next_pull_date))
    return failure("INVALID_NEXT_PULL_DATE", tooSoonMessage);
  if (input.interval !== undefined) record.interval = input.interval;
  if (input.stop_after_date !== undefined)
    record.stop_after_date = input.stop_after_date === null ? null : new Date(input.stop_after_date).toISOString();
  if (input.next_pull_date !== undefined) record.next_pull_date = input.next_pull_date;
  if (input.status === "STOPPED") stopMonitoring(record);
  if (input.status === "ACTIVE" && record.status !== "ACTIVE") {
    record.status = "ACTIVE";
    if (record.next_pull_date === null && interval)
      record.next_pull_date = addInterval(ctx.clock.now(), interval).toISOString();
  }
  return { ok: true, record };
}

/** DELETE /monitorings/:id, or a stop_after_date that has passed. */
export function stopMonitoring(record: MonitoringRecord): void {
  record.status = "STOPPED";
  record.next_pull_date = null;
}

/**
 * The sandbox clock has moved: stops monitorings past their stop_after_date, and moves each
 * due one's next_pull_date past now. Returns the due ones (missed dates do not pile up).
 */
export function takeDueMonitorings(ctx: SandboxContext): MonitoringRecord[] {
  const now = ctx.clock.now().getTime();
  const due: MonitoringRecord[] = [];
  for (const record of flowState(ctx).monitorings.values()) {
    if (record.status !== "ACTIVE") continue;
    if (record.stop_after_date !== null && Date.parse(record.stop_after_date) <= now) {
      stopMonitoring(record);
      continue;
    }
    const interval = parseInterval(record.interval);
    if (record.next_pull_date === null || !interval || Date.parse(record.next_pull_date) > now) continue;
    let next = new Date(record.next_pull_date);
    while (next.getTime() <= now) next = addInterval(next, interval);
    record.next_pull_date = next.toISOString();
    due.push(record);
  }
  return due;
}
