import type { SandboxContext } from "../context";
import { announceData, beginLink, unsupportedInsurer, type StepResult } from "./link";
import { enableMonitoring } from "./monitorings";
import { carrierNamed, linkedPull, startedPull } from "./outcome";
import { PASSWORD, scenarioFor } from "./scenarios";
import { ensureScheduler } from "./scheduler";
import { flowState, type LinkSession } from "./state";
import { checkSubmission } from "./policy-check";
import { teamState, widgetByAlias } from "./team-state";
import { issuePullJwt } from "./tokens";

// A consumer submits a new link (consentAndConnect, or the control API's shortcut): the pull
// exists at once, STARTED, and the flow of link.ts takes it from there.

/** The link a submission is made on when its alias names none of the team's (data/widgets.ts): the quote link. */
export const SANDBOX_WIDGET_ID = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f10";
/** user_good_discover's account is monitored from its first pull, on this interval. */
const DISCOVER_INTERVAL = "P1M";

/** meta_data is kept as the developer sent it: an object stays an object (service-notes, "Pulls"). */
export type LinkSubmission = {
  insurerName: string;
  username: string;
  password: string | null;
  publicAlias: string;
  metaData: unknown;
};
export type LinkResult = { ok: true; pull_id: string; pull_jwt: string } | Extract<StepResult, { ok: false }>;

/**
 * The carrier has been read: the scenario's data goes in, monitoring starts if the scenario or
 * the team's Mode A says so, webhooks go out.
 */
function finishLink(ctx: SandboxContext, session: LinkSession): void {
  const outcome = session.scenario?.outcome;
  const started = ctx.state.pulls.get(session.pullId);
  if (!started || !session.details || outcome?.kind !== "success") return;
  ctx.state.pulls.set(session.pullId, {
    ...linkedPull(flowState(ctx).random, ctx.clock.now(), started, outcome, session.details),
    status: "SUCCESS",
  });
  const teamWide = teamState(ctx).teamWideMonitoring;
  if (session.scenario?.discover || teamWide) {
    const interval = session.scenario?.discover ? DISCOVER_INTERVAL : (teamWide ?? DISCOVER_INTERVAL);
    enableMonitoring(ctx, { pull_id: session.pullId, interval }, session.scenario);
    ensureScheduler(ctx);
  }
  checkSubmission(ctx, session.pullId);
  announceData(ctx, session.pullId);
}

export function submitLink(ctx: SandboxContext, input: LinkSubmission): LinkResult {
  const named = carrierNamed(input.insurerName);
  if (!named) return unsupportedInsurer(input.insurerName) as Extract<StepResult, { ok: false }>;
  const state = flowState(ctx);
  const details = {
    carrier: named.carrier,
    username: input.username,
    publicAlias: input.publicAlias,
    metaData: input.metaData,
    widgetId: widgetByAlias(ctx, input.publicAlias)?.widget_id ?? SANDBOX_WIDGET_ID,
    teamId: ctx.options.teamId,
  };
  const pull = startedPull(state.random, ctx.clock.now(), details);
  ctx.state.pulls.set(pull.pull_id, pull);
  const session: LinkSession = {
    pullId: pull.pull_id,
    scenario: scenarioFor(input.username),
    passwordOk: named.noPassword || input.password === PASSWORD,
    awaiting: null,
    generation: 0,
    sequence: 0,
    monitoringId: null,
    reportAuth: true,
    details,
    wall: null,
    finish: finishLink,
    onWall: null,
  };
  state.sessions.set(pull.pull_id, session);
  beginLink(ctx, session);
  return { ok: true, pull_id: pull.pull_id, pull_jwt: issuePullJwt(ctx, pull.pull_id) };
}
