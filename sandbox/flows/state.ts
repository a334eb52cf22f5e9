import { randomBytes } from "node:crypto";
import type { SandboxContext } from "../context";
import { createRandom, type Random } from "../data/random";
import type { ChangeKind } from "./change-kinds";
import type { LinkDetails } from "./outcome";
import type { Scenario } from "./scenarios";

// The state of the link flows and monitorings, kept beside the sandbox context rather than in
// it: one FlowState per running sandbox, replaced whole by the control API's reset.

/** What a pull waits for from the consumer; null while the service works (or when done). */
export type Awaiting = "connect" | "idvoptions" | "idv" | null;

/** A pull being linked or refreshed: who the consumer is and where the flow stands. */
export type LinkSession = {
  pullId: string;
  scenario: Scenario | null;
  /** The last credentials tried; a wrong password fails even for a known username. */
  passwordOk: boolean;
  awaiting: Awaiting;
  /** Bumped by every consumer action, so that a run overtaken by a newer one stops. */
  generation: number;
  /** AUTH_STATUS `data.sequence`: increases with every auth state change of this pull. */
  sequence: number;
  /** Set on a monitoring's refresh pulls: the refresh compares against this pull. */
  monitoringId: string | null;
  /** Automatic refreshes have no consumer watching: they skip the second factor and raise no AUTH_STATUS. */
  reportAuth: boolean;
  /** What the consumer submitted with a new link; null on a monitoring's refresh pulls. */
  details: LinkDetails | null;
  /** Set to make an automatic refresh stop where the consumer must act (MONITORING_RECONNECT). */
  wall: ReconnectWall | null;
  /** Called when the carrier has been read: stores the data and announces it. */
  finish: (ctx: SandboxContext, session: LinkSession) => void;
  /** Called when the flow stops at `wall`. */
  onWall: ((ctx: SandboxContext, session: LinkSession, wall: ReconnectWall) => void) | null;
};

export type ReconnectWall = "NOT_AUTHENTICATED" | "IDENTITY_VERIFICATION_OPTIONS" | "IDENTITY_VERIFICATION";

export type MonitoringEvent = {
  type: string;
  changes: Array<{
    schema: string;
    type: "CREATE" | "UPDATE" | "DELETE";
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>;
  documents: Array<{ document_id: string }>;
};

export type MonitoringRecord = {
  monitoring_id: string;
  initial_pull_id: string;
  latest_pull_id: string;
  account_identifier: string | null;
  status: "ACTIVE" | "STOPPED";
  next_pull_date: string | null;
  interval: string;
  stop_after_date: string | null;
  created_at: string;
  /** Every pull of the account under this monitoring, oldest first. */
  pullIds: string[];
  /** The latest successful pull: refreshes are compared with it. */
  basePullId: string;
  /** The scenario of the consumer who linked the account, when it was linked through the flow. */
  scenario: Scenario | null;
  /** Successful refreshes so far: picks the next kind of change. */
  refreshCount: number;
  /** The change the next refresh makes when it fits the account (the control API's `change`). */
  nextChange?: ChangeKind | null;
  /** What changed from the previous successful pull to the latest one. */
  events: { previous_pull_id: string | null; latest_pull_id: string; events: MonitoringEvent[] };
};

export type ReconnectToken = { token: string; monitoringId: string; pullId: string; expiresAt: number; used: boolean };

export type FlowState = {
  sessions: Map<string, LinkSession>;
  monitorings: Map<string, MonitoringRecord>;
  reconnectTokens: Map<string, ReconnectToken>;
  /** Ids and data of the pulls made by the flows; seeded apart from the book of pulls. */
  random: Random;
  /** Signs the pull_jwt tokens this sandbox issues. */
  secret: Buffer;
  timers: Set<NodeJS.Timeout>;
  /** Checks for due monitorings as real time passes; started with the first monitoring. */
  scheduler: NodeJS.Timeout | null;
};

const states = new WeakMap<SandboxContext, FlowState>();
const resets = new WeakMap<SandboxContext, number>();

/**
 * Ids are seeded, but differ after each reset: an app that kept the pulls it saw before a
 * reset must not meet the same pull ids again for different links.
 */
function freshState(ctx: SandboxContext): FlowState {
  const generation = resets.get(ctx) ?? 0;
  return {
    sessions: new Map(),
    monitorings: new Map(),
    reconnectTokens: new Map(),
    random: createRandom((ctx.options.seed * 7919 + 17 + generation * 104_729) >>> 0),
    secret: randomBytes(32),
    timers: new Set(),
    scheduler: null,
  };
}

export function flowState(ctx: SandboxContext): FlowState {
  let state = states.get(ctx);
  if (!state) {
    state = freshState(ctx);
    states.set(ctx, state);
  }
  return state;
}

/** Forgets every flow and monitoring; runs in progress notice and stop. */
export function resetFlows(ctx: SandboxContext): void {
  const old = states.get(ctx);
  if (old) for (const timer of old.timers) clearTimeout(timer);
  if (old?.scheduler) clearInterval(old.scheduler);
  resets.set(ctx, (resets.get(ctx) ?? 0) + 1);
  states.set(ctx, freshState(ctx));
}

/** One step of the service's work: about two seconds at speed 1. */
export function stepMs(ctx: SandboxContext): number {
  return 2000 * ctx.options.speed;
}

/** Waits `steps` steps; the timer does not keep the process alive and is cleared by reset. */
export function pause(ctx: SandboxContext, steps = 1): Promise<void> {
  const state = flowState(ctx);
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        state.timers.delete(timer);
        resolve();
      },
      stepMs(ctx) * steps,
    );
    timer.unref();
    state.timers.add(timer);
  });
}
