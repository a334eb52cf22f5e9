import type { SandboxContext } from "../context";
import type { SandboxPull } from "../data/pulls";
import type { ChangeKind } from "./change-kinds";
import { refreshedPull, ROTATION } from "./changes";
import { announceData, beginLink, emit } from "./link";
import { isRefreshing, takeDueMonitorings } from "./monitorings";
import { IDV_OPTIONS } from "./scenarios";
import { flowState, type LinkSession, type MonitoringRecord, type ReconnectWall } from "./state";
import { issueReconnectToken, reconnectUrl } from "./tokens";

// A monitoring's refresh: a NEW pull of the same account that goes through the link flow
// unattended and ends with the account's data as it now is (one plausible change) plus the
// monitoring event; or, when the consumer must act, stops and raises MONITORING_RECONNECT.

const EMPTY = {
  policies: [],
  drivers: [],
  documents: [],
  addresses: [],
  claims: [],
  driving_records: [],
  loss_events: [],
  agents: [],
  answers: [],
};

/**
 * The kinds of change to try, in order: the one the control API asked for, then the account's
 * next turn of the rotation (discover: a mortgagee first).
 */
function changeKinds(record: MonitoringRecord): ChangeKind[] {
  const start = record.refreshCount % ROTATION.length;
  const turn = [...ROTATION.slice(start), ...ROTATION.slice(0, start)];
  const kinds = record.scenario?.discover && record.refreshCount === 0 ? ["mortgagee_added" as const, ...turn] : turn;
  return record.nextChange ? [record.nextChange, ...kinds] : kinds;
}

/** Stores the refreshed account under the session's pull and announces it with the event. */
function finishRefresh(ctx: SandboxContext, session: LinkSession): void {
  const record = session.monitoringId ? flowState(ctx).monitorings.get(session.monitoringId) : undefined;
  const base = record ? ctx.state.pulls.get(record.basePullId) : undefined;
  const current = ctx.state.pulls.get(session.pullId);
  if (!record || !base || !current) return;
  const { pull, event, updates } = refreshedPull(
    flowState(ctx).random,
    base,
    session.pullId,
    ctx.clock.now(),
    changeKinds(record),
  );
  ctx.state.pulls.set(session.pullId, {
    ...pull,
    created_at: current.created_at,
    encountered_mfa: current.encountered_mfa,
  });
  record.events = { previous_pull_id: base.pull_id, latest_pull_id: session.pullId, events: event ? [event] : [] };
  record.basePullId = session.pullId;
  record.refreshCount++;
  record.nextChange = null;
  announceData(
    ctx,
    session.pullId,
    event
      ? [
          ["DATA_UPDATED", { updates }],
          ["MONITORING_EVENTS", event],
        ]
      : [],
  );
}

/** The flow stopped where the consumer must act: a fresh reconnect token goes out by webhook. */
function announceReconnect(ctx: SandboxContext, session: LinkSession, wall: ReconnectWall): void {
  const record = session.monitoringId ? flowState(ctx).monitorings.get(session.monitoringId) : undefined;
  const pull = ctx.state.pulls.get(session.pullId);
  if (!record || !pull) return;
  const token = issueReconnectToken(ctx, record.monitoring_id, session.pullId);
  emit(ctx, session.pullId, "MONITORING_RECONNECT", {
    auth_status: wall,
    reconnect_url: reconnectUrl(pull.public_alias, token),
    reconnect_token: token,
    ...(wall === "IDENTITY_VERIFICATION_OPTIONS" ? { options: IDV_OPTIONS } : {}),
  });
}

/** A new, empty pull of the monitored account, now its latest; an older waiting pull expires. */
function newAccountPull(ctx: SandboxContext, record: MonitoringRecord, status: string): SandboxPull | null {
  const base = ctx.state.pulls.get(record.basePullId);
  if (!base) return null;
  const state = flowState(ctx);
  const superseded = state.sessions.get(record.latest_pull_id);
  if (superseded) {
    superseded.awaiting = null;
    superseded.generation++;
  }
  const pull: SandboxPull = {
    ...base,
    ...EMPTY,
    pull_id: state.random.uuid(),
    status,
    created_at: ctx.clock.now().toISOString(),
    is_archived: false,
    parent_pull_id: null,
    encountered_mfa: false,
    funnel: null,
    no_policies: true,
    no_drivers: true,
    no_documents: true,
    no_claims: true,
    no_loss_events: true,
  };
  ctx.state.pulls.set(pull.pull_id, pull);
  record.latest_pull_id = pull.pull_id;
  record.pullIds.push(pull.pull_id);
  return pull;
}

function refreshSession(
  ctx: SandboxContext,
  record: MonitoringRecord,
  pullId: string,
  wall: ReconnectWall | null,
): LinkSession {
  const session: LinkSession = {
    pullId,
    scenario: record.scenario,
    passwordOk: true,
    awaiting: null,
    generation: 0,
    sequence: 0,
    monitoringId: record.monitoring_id,
    reportAuth: false,
    details: null,
    wall,
    finish: finishRefresh,
    onWall: announceReconnect,
  };
  flowState(ctx).sessions.set(pullId, session);
  return session;
}

/** Starts a refresh; `wall` makes it stop for the consumer (the control API's reconnect-needed). */
export function startRefresh(
  ctx: SandboxContext,
  record: MonitoringRecord,
  wall: ReconnectWall | null = null,
  change: ChangeKind | null = null,
): string | null {
  record.nextChange = change;
  const pull = newAccountPull(ctx, record, "STARTED");
  if (!pull) return null;
  beginLink(ctx, refreshSession(ctx, record, pull.pull_id, wall));
  return pull.pull_id;
}

/** Refreshes the monitorings whose next_pull_date the sandbox clock has passed. */
export function runDueMonitorings(ctx: SandboxContext): string[] {
  return takeDueMonitorings(ctx).flatMap((record) => {
    if (isRefreshing(ctx, record)) return [];
    const pullId = startRefresh(ctx, record);
    return pullId ? [pullId] : [];
  });
}

export type RedeemResult = { ok: true; pullId: string } | { ok: false; code: string };

/**
 * POST /widget/pull/reconnectToken: the token's pull, when it waits for the consumer; else a
 * new pull of the account that waits for credentials (NOT_AUTHENTICATED, left by connect).
 */
export function redeemReconnectToken(ctx: SandboxContext, token: string): RedeemResult {
  const state = flowState(ctx);
  const entry = state.reconnectTokens.get(token);
  const record = entry ? state.monitorings.get(entry.monitoringId) : undefined;
  if (!entry || !record || entry.expiresAt <= ctx.clock.now().getTime())
    return { ok: false, code: "INVALID_RECONNECT_TOKEN" };
  if (entry.used) return { ok: false, code: "ALREADY_RECONNECTED" };
  if (record.status !== "ACTIVE") return { ok: false, code: "MONITORING_INACTIVE" };
  if (record.latest_pull_id !== entry.pullId) return { ok: false, code: "NEWER_PULL_AVAILABLE" };
  entry.used = true;
  const waiting = state.sessions.get(entry.pullId);
  if (waiting?.awaiting) {
    waiting.reportAuth = true;
    return { ok: true, pullId: entry.pullId };
  }
  const pull = newAccountPull(ctx, record, "NOT_AUTHENTICATED");
  if (!pull) return { ok: false, code: "INVALID_RECONNECT_TOKEN" };
  const session = refreshSession(ctx, record, pull.pull_id, null);
  session.reportAuth = true;
  session.awaiting = "connect";
  return { ok: true, pullId: pull.pull_id };
}

/** GET /monitorings/:id/reconnectToken: a fresh token for the account's latest pull. */
export function freshReconnectToken(
  ctx: SandboxContext,
  record: MonitoringRecord,
): { pull_id: string; reconnect_url: string; reconnect_token: string } {
  const token = issueReconnectToken(ctx, record.monitoring_id, record.latest_pull_id);
  return {
    pull_id: record.latest_pull_id,
    reconnect_url: reconnectUrl(ctx.state.pulls.get(record.latest_pull_id)?.public_alias, token),
    reconnect_token: token,
  };
}
