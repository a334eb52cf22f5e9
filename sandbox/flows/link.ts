import type { SandboxContext } from "../context";
import type { SandboxPull } from "../data/pulls";
import { carrierNamed } from "./outcome";
import {
  CARRIER_LOGIN_ERROR,
  IDV_OPTIONS,
  MFA_CARRIER_ERROR_CODE,
  MFA_WRONG_CODE,
  PASSWORD,
  scenarioFor,
  WRONG_CODE_MESSAGE,
} from "./scenarios";
import { flowState, pause, type LinkSession } from "./state";

// How a submitted link moves over time (service-notes, "Pull status"): STARTED → QUEUED →
// PROCESSING → (IDENTITY_VERIFICATION_OPTIONS → IDENTITY_VERIFICATION) → GETTING_CONSUMERS →
// PULLING_DATA → SUCCESS, or NOT_AUTHENTICATED / PROVIDER_ERROR / INTERNAL_ERROR. The pull is
// in the book from the start, so GET /pulls/:id shows each status; the consumer's answers
// (connect, idvoptions, idv) resume the flow. One step is `stepMs` (scaled by speed).

/** Stores a new status (and any other fields) on the pull; null when it is gone (reset). */
export function setStatus(
  ctx: SandboxContext,
  pullId: string,
  status: string,
  patch: Record<string, unknown> = {},
): SandboxPull | null {
  const pull = ctx.state.pulls.get(pullId);
  if (!pull) return null;
  const next: SandboxPull = { ...pull, ...patch, status };
  ctx.state.pulls.set(pullId, next);
  return next;
}

/** Queues a webhook about the pull as it now stands; child pulls fire none (spec 6, rule 1). */
export function emit(ctx: SandboxContext, pullId: string, eventType: string, data: Record<string, unknown>): void {
  const pull = ctx.state.pulls.get(pullId);
  if (!pull || pull.parent_pull_id) return;
  ctx.deliveries.enqueue(ctx.webhookBody(pull, eventType, data));
}

function authStatus(
  ctx: SandboxContext,
  session: LinkSession,
  status: string,
  message: string | null,
  options?: ReadonlyArray<{ key: string; label: string }>,
): void {
  if (!session.reportAuth) return;
  session.sequence++;
  emit(ctx, session.pullId, "AUTH_STATUS", {
    auth_status: status,
    login_error_message: message,
    sequence: session.sequence,
    ...(options ? { options } : {}),
  });
}

/** The data is in: POLICY_AVAILABLE per policy, POLICIES_AVAILABLE, then `extra`, COMPLETE last. */
export function announceData(
  ctx: SandboxContext,
  pullId: string,
  extra: Array<[string, Record<string, unknown>]> = [],
): void {
  const pull = ctx.state.pulls.get(pullId);
  if (!pull) return;
  for (const policy of pull.policies as Array<{ policy_id: string; policy_type: string }>)
    emit(ctx, pullId, "POLICY_AVAILABLE", { policy_id: policy.policy_id, policy_type: policy.policy_type });
  emit(ctx, pullId, "POLICIES_AVAILABLE", {});
  for (const [type, data] of extra) emit(ctx, pullId, type, data);
  emit(ctx, pullId, "COMPLETE", {});
}

/** Starts a run of the flow; a newer run (a later consumer answer, a reset) stops older ones. */
function run(
  ctx: SandboxContext,
  session: LinkSession,
  body: (next: (steps?: number) => Promise<boolean>) => Promise<void>,
): void {
  const generation = ++session.generation;
  session.awaiting = null;
  const alive = () =>
    flowState(ctx).sessions.get(session.pullId) === session &&
    session.generation === generation &&
    !ctx.deliveries.isClosed &&
    ctx.state.pulls.has(session.pullId);
  const next = async (steps = 1) => {
    await pause(ctx, steps);
    return alive();
  };
  body(next).catch((error: unknown) =>
    ctx.log(`link flow of ${session.pullId} failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}

function refuse(ctx: SandboxContext, session: LinkSession, message: string | null): void {
  setStatus(ctx, session.pullId, "NOT_AUTHENTICATED");
  session.awaiting = "connect";
  authStatus(ctx, session, "NOT_AUTHENTICATED", message);
}

/** Logged in: find the account holders, read the policies, then finish (or fail as the scenario says). */
async function pullData(
  ctx: SandboxContext,
  session: LinkSession,
  next: (steps?: number) => Promise<boolean>,
): Promise<void> {
  setStatus(ctx, session.pullId, "GETTING_CONSUMERS");
  authStatus(ctx, session, "SUCCESS", null);
  if (!(await next())) return;
  setStatus(ctx, session.pullId, "PULLING_DATA");
  if (!(await next(2))) return;
  const outcome = session.scenario?.outcome;
  if (outcome?.kind === "error") {
    setStatus(ctx, session.pullId, outcome.type);
    emit(ctx, session.pullId, "ERROR", { type: outcome.type });
    return;
  }
  session.finish(ctx, session);
}

/** Logs in with the session's credentials, meeting the scenario's second factor. */
async function authenticate(
  ctx: SandboxContext,
  session: LinkSession,
  next: (steps?: number) => Promise<boolean>,
): Promise<void> {
  if (session.wall) {
    const wall = session.wall;
    session.wall = null;
    session.reportAuth = true; // from here on a consumer is in the loop
    setStatus(ctx, session.pullId, wall, wall === "NOT_AUTHENTICATED" ? {} : { encountered_mfa: true });
    session.awaiting =
      wall === "NOT_AUTHENTICATED" ? "connect" : wall === "IDENTITY_VERIFICATION_OPTIONS" ? "idvoptions" : "idv";
    session.onWall?.(ctx, session, wall);
    return;
  }
  // An automatic refresh uses the stored login and a trusted device: no second factor.
  if (!session.reportAuth) return pullData(ctx, session, next);
  const scenario = session.scenario;
  if (!scenario || !session.passwordOk) return refuse(ctx, session, null); // null: "show your default message"
  if (scenario.outcome.kind === "not_authenticated") return refuse(ctx, session, scenario.outcome.message);
  if (scenario.mfa === "options") {
    setStatus(ctx, session.pullId, "IDENTITY_VERIFICATION_OPTIONS", { encountered_mfa: true });
    session.awaiting = "idvoptions";
    authStatus(ctx, session, "IDENTITY_VERIFICATION_OPTIONS", null, IDV_OPTIONS);
    return;
  }
  if (scenario.mfa === "optionless") {
    setStatus(ctx, session.pullId, "IDENTITY_VERIFICATION", { encountered_mfa: true });
    session.awaiting = "idv";
    authStatus(ctx, session, "IDENTITY_VERIFICATION", null);
    return;
  }
  return pullData(ctx, session, next);
}

/** From submission: queued, processed, then the login. */
export function beginLink(ctx: SandboxContext, session: LinkSession): void {
  run(ctx, session, async (next) => {
    if (!(await next())) return;
    setStatus(ctx, session.pullId, "QUEUED");
    if (!(await next())) return;
    setStatus(ctx, session.pullId, "PROCESSING");
    if (!(await next())) return;
    await authenticate(ctx, session, next);
  });
}

export type StepResult = { ok: true } | { ok: false; status: number; code: string; message: string };

/** A step at the wrong moment: the service answers 400 INVALID_ACTION (service-notes). */
const notWaiting = (what: string): StepResult => ({
  ok: false,
  status: 400,
  code: "INVALID_ACTION",
  message: `The pull is not waiting for ${what}.`,
});
export const unsupportedInsurer = (insurerName: string): StepResult => ({
  ok: false,
  status: 400,
  code: "UNSUPPORTED_INSURER",
  message: `${JSON.stringify(insurerName)} is not a carrier id of GET /carriers.`,
});

function waitingSession(ctx: SandboxContext, pullId: string): LinkSession | null {
  return flowState(ctx).sessions.get(pullId) ?? null;
}

/** POST …/connect: new credentials, accepted whenever the pull waits for the consumer. */
export function connect(
  ctx: SandboxContext,
  pullId: string,
  input: { insurerName: string; username: string; password: string | null },
): StepResult {
  const named = carrierNamed(input.insurerName);
  if (!named) return unsupportedInsurer(input.insurerName);
  const session = waitingSession(ctx, pullId);
  if (!session?.awaiting) return notWaiting("credentials");
  session.scenario = scenarioFor(input.username);
  session.passwordOk = named.noPassword || input.password === PASSWORD;
  session.reportAuth = true;
  if (session.details) {
    const { carrier } = named;
    session.details = { ...session.details, carrier, username: input.username };
    setStatus(ctx, pullId, "PROCESSING", {
      insurance_provider_name: carrier[0],
      insurance_provider_friendly_name: carrier[1],
    });
  } else setStatus(ctx, pullId, "PROCESSING");
  run(ctx, session, async (next) => {
    if (!(await next())) return;
    await authenticate(ctx, session, next);
  });
  return { ok: true };
}

/** POST …/idvoptions: the consumer picked where the code goes; it is "sent" and awaited. */
export function chooseOption(ctx: SandboxContext, pullId: string, optionKey: string): StepResult {
  const session = waitingSession(ctx, pullId);
  if (session?.awaiting !== "idvoptions") return notWaiting("a verification option");
  if (!IDV_OPTIONS.some((o) => o.key === optionKey))
    return {
      ok: false,
      status: 400,
      code: "INVALID_INPUT",
      message: `optionKey must be one of ${IDV_OPTIONS.map((o) => o.key).join(", ")}`,
    };
  setStatus(ctx, pullId, "PROCESSING");
  run(ctx, session, async (next) => {
    if (!(await next())) return;
    setStatus(ctx, pullId, "IDENTITY_VERIFICATION");
    session.awaiting = "idv";
    authStatus(ctx, session, "IDENTITY_VERIFICATION", null);
  });
  return { ok: true };
}

/** POST …/idv: 000000 is a wrong code, 000001 a carrier refusal, anything else lets the consumer in. */
export function submitCode(ctx: SandboxContext, pullId: string, code: string): StepResult {
  const session = waitingSession(ctx, pullId);
  if (session?.awaiting !== "idv") return notWaiting("a verification code");
  setStatus(ctx, pullId, "PROCESSING");
  run(ctx, session, async (next) => {
    if (!(await next())) return;
    if (code === MFA_WRONG_CODE) {
      setStatus(ctx, pullId, "IDENTITY_VERIFICATION");
      session.awaiting = "idv";
      authStatus(ctx, session, "IDENTITY_VERIFICATION", WRONG_CODE_MESSAGE);
      return;
    }
    if (code === MFA_CARRIER_ERROR_CODE) return refuse(ctx, session, CARRIER_LOGIN_ERROR);
    await pullData(ctx, session, next);
  });
  return { ok: true };
}
