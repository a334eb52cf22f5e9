import { z } from "zod";
import { describeIssues, NO_FAULTS, UUID, type Faults, type SandboxContext } from "../context";
import { fail, readJson, send } from "../http";
import type { RouteRequest } from "../context";
import { runDueMonitorings } from "../flows/refresh";
import { PASSWORD } from "../flows/scenarios";
import { flowState, resetFlows } from "../flows/state";
import { submitLink } from "../flows/submit";
import { monitoringControl } from "./monitorings-control";
import { planControl } from "./plan-control";
import { rateLimitControl, rateLimitView } from "../rate-limit";
import { dashboardControl } from "./dashboard-control";
import { receiverControl } from "./receiver-control";
import { generateHistory } from "../data/history";
import { checkSubmission } from "../flows/policy-check";
import type { SandboxPull } from "../data/pulls";

// The control API under /_sandbox, for tests and demos: never part of the service's surface.
//   GET  /state                          counts, faults, pull fetches held by latency, sandbox clock
//   POST /faults                         {errorRate?, timeoutRate?, latencyMs?, duplicateRate?, reorder?}
//   POST /rate-limit                     {requestsPerMinute?, retryAfterSeconds?, retryAfterForm?} or {off: true}:
//                                        team routes answer 429 RATE_LIMITED with Retry-After (../rate-limit.ts)
//   POST /deliver                        {pull_ids?}: COMPLETE (or ERROR) webhooks for seeded pulls
//   POST /clock/advance                  {days?, hours?}: due monitorings refresh
//   POST /links                          {username, password?, carrier? (a carrier id), public_alias?, meta_data?}: a consumer
//                                        link through the consentAndConnect flow → {pull_id, pull_jwt}
//   POST /monitorings                    {pull_id, interval?, next_pull_date?, stop_after_date?}: a monitoring
//                                        started on the service's dashboard, not through the API → {monitoring}
//   POST /monitorings/{id}/stop          stopped on the dashboard → {monitoring}
//   POST /monitorings/team-wide          {interval | null}: Mode A, every successful link monitored (those
//                                        already linked at once) → {interval, monitored}
//   POST /monitorings/{id}/refresh       a refresh now → {pull_id}
//   POST /monitorings/{id}/reconnect-needed  {auth_status?}: the next refresh needs the consumer
//   POST /pulls                          a pull exactly as given (e.g. the real service's published
//                                        examples), served as is → {pull_id}; then /deliver it
//   POST /plan                           {policyCheck?, policySearch?, enrichment?, whitelabel?}: plan-gated features on or off
//   POST /dashboard/webhooks[/{id}]      the service's dashboard: a webhook for any event types, or another
//                                        webhook's types changed (see dashboard-control.ts)
//   POST /history                        {seed, count, days, until?, deliver?}: a book of `count` linked accounts
//                                        created over the `days` days before `until` (default: the
//                                        sandbox's today), deterministic for seed and until; their
//                                        webhooks go out unless deliver is false → {pulls:[{pull_id, created_at, status}]}
//   POST|GET /receiver, PUT /receiver/secret  a receiver of the agency's outgoing webhooks (receiver-control.ts)
//   POST /reset                          seeded pulls again; flows, monitorings, faults and rate limit cleared

const faultsSchema = z.object({
  errorRate: z.number().min(0).max(1).optional(),
  timeoutRate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /** Share of webhooks sent twice. */
  duplicateRate: z.number().min(0).max(1).optional(),
  /** Webhooks raised close together go out in reverse order. */
  reorder: z.boolean().optional(),
});
/** Any JSON object with a pull id: the payload is kept as sent, odd fields and all. */
const rawPullSchema = z.looseObject({ pull_id: z.string().regex(UUID, "pull_id must be a UUID") });
const deliverSchema = z.object({ pull_ids: z.array(z.string().regex(UUID)).optional() });
const advanceSchema = z.object({
  days: z.number().min(0).max(3650).optional(),
  hours: z.number().min(0).max(87_600).optional(),
});
const historySchema = z.object({
  seed: z.number().int(),
  count: z.number().int().min(1).max(5_000),
  days: z.number().min(1).max(3_650),
  until: z.iso.datetime({ offset: true }).optional(),
  deliver: z.boolean().default(true),
});
/** A consumer link without the consent screens: a scenario username (see flows/scenarios.ts). */
const linkSchema = z.object({
  username: z.string().trim().min(1).max(500),
  password: z.string().max(500).optional(),
  carrier: z.string().trim().min(1).max(200).optional(),
  public_alias: z.string().trim().min(1).max(200).optional(),
  meta_data: z.union([z.string().max(20_000), z.record(z.string(), z.unknown()), z.null()]).optional(),
});

export type ControlHooks = { deliverComplete: (pullIds?: string[]) => number; reset: () => void };

function setFaults(ctx: SandboxContext, faults: Faults): void {
  ctx.state.faults = faults;
  ctx.deliveries.setFaults({ duplicateRate: faults.duplicateRate, reorder: faults.reorder });
}

export async function controlRoutes(
  ctx: SandboxContext,
  hooks: ControlHooks,
  { req, res, method, path }: RouteRequest,
): Promise<boolean> {
  if (path === "/state" && method === "GET") {
    return send(res, 200, {
      pulls: ctx.state.pulls.size,
      monitorings: flowState(ctx).monitorings.size,
      deliveries: ctx.deliveries.counts,
      faults: ctx.state.faults,
      delayedPullFetches: ctx.state.delayedPullFetches,
      rateLimit: rateLimitView(ctx.state.rateLimit),
      now: ctx.clock.now().toISOString(),
    });
  }
  if (path === "/receiver" || path.startsWith("/receiver/")) return receiverControl(ctx, method, path, req, res);
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const body = await readJson(req);
  if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
  if (path === "/faults") {
    const parsed = faultsSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    setFaults(ctx, { ...ctx.state.faults, ...parsed.data });
    return send(res, 200, { faults: ctx.state.faults });
  }
  if (path === "/rate-limit") return rateLimitControl(ctx, body.value, res);
  if (path === "/deliver") {
    const parsed = deliverSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", "pull_ids must be a list of UUIDs");
    return send(res, 200, { queued: hooks.deliverComplete(parsed.data.pull_ids) });
  }
  if (path === "/clock/advance") {
    const parsed = advanceSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    ctx.clock.advance(((parsed.data.days ?? 0) * 24 + (parsed.data.hours ?? 0)) * 3_600_000);
    // Monitorings whose next_pull_date has now passed refresh, as the service's scheduler would.
    return send(res, 200, { now: ctx.clock.now().toISOString(), refreshed: runDueMonitorings(ctx) });
  }
  if (path === "/pulls") {
    const parsed = rawPullSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const pull = {
      policies: [],
      drivers: [],
      documents: [],
      addresses: [],
      claims: [],
      driving_records: [],
      loss_events: [],
      agents: [],
      answers: [],
      parent_pull_id: null,
      status: "SUCCESS",
      created_at: ctx.clock.now().toISOString(),
      account_identifier: null,
      ...parsed.data,
    };
    ctx.state.pulls.set(parsed.data.pull_id, pull as SandboxPull);
    ctx.state.givenPullIds.add(parsed.data.pull_id);
    return send(res, 200, { pull_id: parsed.data.pull_id });
  }
  if (path === "/history") {
    const parsed = historySchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const { seed, count, days, until, deliver } = parsed.data;
    const end = until ? new Date(until) : ctx.clock.now();
    if (end.getTime() > ctx.clock.now().getTime())
      return fail(res, 400, "INVALID_INPUT", "until: must not be after the sandbox's clock");
    const book = generateHistory({ seed, count, days, until: end });
    // Already served (asked for again, e.g. by a resumed demo): the pull as it now stands is kept.
    // Each is a submission like any other: the team's policy-check rules run on it.
    for (const pull of book)
      if (!ctx.state.pulls.has(pull.pull_id)) {
        ctx.state.pulls.set(pull.pull_id, { ...pull, team_id: ctx.options.teamId });
        checkSubmission(ctx, pull.pull_id);
      }
    if (deliver) hooks.deliverComplete(book.map((p) => p.pull_id));
    return send(res, 200, {
      pulls: book.map((p) => ({ pull_id: p.pull_id, created_at: p.created_at, status: p.status })),
    });
  }
  if (path === "/links") {
    const parsed = linkSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    const { username, password, carrier, public_alias, meta_data } = parsed.data;
    const link = submitLink(ctx, {
      username,
      password: password ?? PASSWORD,
      insurerName: carrier ?? "progressive",
      publicAlias: public_alias ?? "get-a-quote",
      metaData: meta_data ?? null,
    });
    return link.ok
      ? send(res, 200, { pull_id: link.pull_id, pull_jwt: link.pull_jwt })
      : fail(res, link.status, link.code, link.message);
  }
  if (path === "/monitorings" || path.startsWith("/monitorings/")) return monitoringControl(ctx, path, body.value, res);
  if (path === "/plan") return planControl(ctx, body.value, res);
  if (path.startsWith("/dashboard/")) return dashboardControl(ctx, path, body.value, res);
  if (path === "/reset") {
    hooks.reset();
    resetFlows(ctx);
    setFaults(ctx, { ...NO_FAULTS });
    return send(res, 200, { reset: true });
  }
  return fail(res, 404, "NOT_FOUND");
}
