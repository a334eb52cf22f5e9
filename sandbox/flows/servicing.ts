import { z } from "zod";
import type { SandboxContext } from "../context";
import type { SandboxPull } from "../data/pulls";
import { servicingActionsOf, SERVICING_ACTION_TYPES } from "../data/carriers";
import { renewIds } from "./ids";
import { emit, setStatus } from "./link";
import { MAX_PULL_AGE_DAYS } from "./monitorings";
import type { ServicingRecord, ServicingStatus } from "./servicing-record";
import { flowState, pause } from "./state";
import { teamState } from "./team-state";
import { issuePullJwt } from "./tokens";

// Servicing (service-notes, "Servicing"): the service changes a policy at the carrier for the
// consumer. A request reuses an existing pull's login and makes a new pull of type SERVICING;
// each action runs QUEUED → IN_PROGRESS → WAITING_FOR_CONSUMER_CONFIRMATION (a
// SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION webhook) and, once the consumer answers through
// POST /widget/pull/{pullId}/servicingAction, SUBMITTING_CONFIRMATION → SUCCESS, or UNCONFIRMED.
// What the carrier would refuse ends in VALIDATION_ERROR with a validation_error_type.

export const MORTGAGEE_TYPES = ["FIRST", "SECOND", "THIRD"] as const;
const text = z.string().trim().min(1).max(500);
const mortgagee = z.looseObject({
  carrier_policy_number: text,
  name: text,
  address: text,
  loan_number: z.string().max(100).nullable().optional(),
  mortgagee_type: text,
});
/** The fields the service needs to act; anything else in the payload is kept as sent. */
const PAYLOADS: Record<(typeof SERVICING_ACTION_TYPES)[number], z.ZodType<Record<string, unknown>>> = {
  ADD_MORTGAGEE: mortgagee,
  EDIT_MORTGAGEE: mortgagee,
  REMOVE_MORTGAGEE: z.looseObject({ carrier_policy_number: text, mortgagee_type: text }),
  ADD_VEHICLE: z.looseObject({
    carrier_policy_number: text,
    vehicle: z.looseObject({ vin: text, model_year: z.number().int().min(1900).max(2100).optional() }),
  }),
};

export const servicingRequestSchema = z.object({
  pull_id: z.string().trim().min(1).max(100),
  servicing_actions: z
    .array(z.object({ type: z.enum(SERVICING_ACTION_TYPES), payload: z.record(z.string(), z.unknown()) }))
    .min(1)
    .max(10),
});

type Failure = { ok: false; status: number; code: string; message?: string };
const failure = (status: number, code: string, message?: string): Failure => ({ ok: false, status, code, message });

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [];

/** The action as the service serves it. */
export function servedServicing(record: ServicingRecord) {
  const { servicing_action_id, type, payload, confirmation_data, status, validation_error_type } = record;
  return { servicing_action_id, type, payload, confirmation_data, status, validation_error_type };
}

function actionsOf(ctx: SandboxContext, pullId: string): ServicingRecord[] {
  return [...teamState(ctx).servicings.values()].filter((r) => r.pullId === pullId);
}

/** The servicing pull's status follows its actions; COMPLETE goes out once all have ended. */
function settlePull(ctx: SandboxContext, pullId: string): void {
  const statuses = actionsOf(ctx, pullId).map((r) => r.status);
  const current = ctx.state.pulls.get(pullId)?.status;
  const any = (...wanted: ServicingStatus[]) => statuses.some((s) => wanted.includes(s));
  const next = any("QUEUED", "IN_PROGRESS")
    ? "SERVICING"
    : any("WAITING_FOR_CONSUMER_CONFIRMATION")
      ? "WAITING_FOR_CONSUMER_CONFIRMATION"
      : any("SUBMITTING_CONFIRMATION")
        ? "SUBMITTING_CONFIRMATION"
        : statuses.every((s) => s === "VALIDATION_ERROR")
          ? "VALIDATION_ERROR"
          : "SUCCESS";
  if (next === current) return;
  setStatus(ctx, pullId, next);
  if (next === "SUCCESS" || next === "VALIDATION_ERROR") emit(ctx, pullId, "COMPLETE", {});
}

/** What the carrier would refuse, found once the service has logged in; null when it would accept. */
function validationError(source: SandboxPull, record: ServicingRecord): string | null {
  const policy = rows(source.policies).find((p) => p.carrier_policy_number === record.payload.carrier_policy_number);
  if (!policy) return "INVALID_POLICY_NUMBER";
  if (record.type === "ADD_VEHICLE") {
    if (rows(policy.vehicles).length === 0) return "INVALID_POLICY_TYPE";
    const vin = (record.payload.vehicle as Row | undefined)?.vin;
    return typeof vin === "string" && /^[A-HJ-NPR-Z0-9]{17}$/i.test(vin) ? null : "INVALID_VIN";
  }
  const dwellings = rows(policy.dwellings);
  if (dwellings.length === 0) return "INVALID_POLICY_TYPE";
  const position = MORTGAGEE_TYPES.indexOf(record.payload.mortgagee_type as (typeof MORTGAGEE_TYPES)[number]);
  if (position < 0) return "INVALID_MORTGAGEE_TYPE";
  const existing = rows(dwellings[0]?.mortgagees);
  if (
    record.type === "ADD_MORTGAGEE" &&
    existing.some((m) => String(m.name).toLowerCase() === String(record.payload.name).toLowerCase())
  )
    return "DUPLICATE_MORTGAGEE_NAME";
  if (record.type === "ADD_MORTGAGEE" && existing[position]) return "DUPLICATE_MORTGAGEE_TYPE";
  if (record.type !== "ADD_MORTGAGEE" && !existing[position]) return "INVALID_MORTGAGEE_TYPE";
  return null;
}

function summary(record: ServicingRecord): string {
  const p = record.payload;
  const policy = String(p.carrier_policy_number);
  const position = String(p.mortgagee_type ?? "").toLowerCase();
  switch (record.type) {
    case "ADD_MORTGAGEE":
      return `Add ${String(p.name)} as ${position} mortgagee on policy ${policy}.`;
    case "EDIT_MORTGAGEE":
      return `Change the ${position} mortgagee on policy ${policy} to ${String(p.name)}.`;
    case "REMOVE_MORTGAGEE":
      return `Remove the ${position} mortgagee from policy ${policy}.`;
    default:
      return `Add the vehicle with VIN ${String((p.vehicle as Row | undefined)?.vin)} to policy ${policy}.`;
  }
}

/** One action's run: a step to start, a step at the carrier, then it waits for the consumer. */
function runAction(ctx: SandboxContext, record: ServicingRecord, source: SandboxPull): void {
  const alive = () =>
    teamState(ctx).servicings.get(record.servicing_action_id) === record &&
    ctx.state.pulls.has(record.pullId) &&
    !ctx.deliveries.isClosed;
  const run = async () => {
    await pause(ctx);
    if (!alive()) return;
    record.status = "IN_PROGRESS";
    settlePull(ctx, record.pullId);
    await pause(ctx, 2);
    if (!alive()) return;
    const error = validationError(source, record);
    if (error) {
      record.status = "VALIDATION_ERROR";
      record.validation_error_type = error;
      settlePull(ctx, record.pullId);
      return;
    }
    record.status = "WAITING_FOR_CONSUMER_CONFIRMATION";
    record.confirmation_data = {
      summary: summary(record),
      carrier_policy_number: record.payload.carrier_policy_number,
      effective_date: ctx.clock.now().toISOString().slice(0, 10),
    };
    settlePull(ctx, record.pullId);
    emit(ctx, record.pullId, "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION", {
      servicing_action_id: record.servicing_action_id,
    });
  };
  run().catch((error: unknown) =>
    ctx.log(
      `servicing ${record.servicing_action_id} failed: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}

export type CreatedServicing = {
  ok: true;
  answer: { pull_id: string; pull_jwt: string; servicing_action_ids: string[] };
};

export function createServicing(
  ctx: SandboxContext,
  input: z.output<typeof servicingRequestSchema>,
): CreatedServicing | Failure {
  const source = ctx.state.pulls.get(input.pull_id);
  if (!source) return failure(404, "NOT_FOUND");
  if (source.type !== "PULLING_DATA" || source.parent_pull_id || source.status !== "SUCCESS")
    return failure(
      400,
      "INVALID_INPUT",
      "pull_id: only a top-level PULLING_DATA pull in SUCCESS holds a login to service with.",
    );
  if (ctx.clock.now().getTime() - Date.parse(source.created_at) > MAX_PULL_AGE_DAYS * 86_400_000)
    return failure(400, "PULL_TOO_OLD", `The pull is older than ${MAX_PULL_AGE_DAYS} days; link the account again.`);
  const carrier = String(source.insurance_provider_name ?? "");
  const supported = servicingActionsOf(carrier);
  const payloads: Array<Record<string, unknown>> = [];
  for (const [index, action] of input.servicing_actions.entries()) {
    if (!supported.includes(action.type))
      return failure(
        400,
        "INVALID_INPUT",
        `servicing_actions.${index}.type: ${carrier || "this carrier"} does not support ${action.type}`,
      );
    const payload = PAYLOADS[action.type].safeParse(action.payload);
    if (!payload.success)
      return failure(
        400,
        "INVALID_INPUT",
        `servicing_actions.${index}.payload: ${payload.error.issues.map((i) => `${i.path.join(".") || "payload"} ${i.message}`).join("; ")}`,
      );
    payloads.push(payload.data);
  }

  // The new pull reads the same account: the source's data under fresh ids.
  const random = flowState(ctx).random;
  const pullId = random.uuid();
  const copy = renewIds(random, source, new Map([[source.pull_id, pullId]])).value;
  const now = ctx.clock.now().toISOString();
  ctx.state.pulls.set(pullId, {
    ...copy,
    pull_id: pullId,
    type: "SERVICING",
    status: "SERVICING",
    created_at: now,
    is_archived: false,
    funnel: null,
    policy_check_status: null,
    policy_check_results: null,
  });

  const servicings = teamState(ctx).servicings;
  const records = input.servicing_actions.map((action, index): ServicingRecord => ({
    servicing_action_id: random.uuid(),
    type: action.type,
    payload: payloads[index] ?? action.payload,
    confirmation_data: null,
    status: "QUEUED",
    validation_error_type: null,
    pullId,
    sourcePullId: source.pull_id,
    createdAt: now,
  }));
  for (const record of records) {
    servicings.set(record.servicing_action_id, record);
    runAction(ctx, record, source);
  }
  return {
    ok: true,
    answer: {
      pull_id: pullId,
      pull_jwt: issuePullJwt(ctx, pullId),
      servicing_action_ids: records.map((r) => r.servicing_action_id),
    },
  };
}

/** POST /widget/pull/{pullId}/servicingAction: the consumer says yes (or no) to one action. */
export function confirmServicingAction(
  ctx: SandboxContext,
  pullId: string,
  actionId: string,
  confirmed: boolean,
): { ok: true } | Failure {
  const record = teamState(ctx).servicings.get(actionId);
  if (!record || record.pullId !== pullId) return failure(404, "NOT_FOUND");
  if (record.status !== "WAITING_FOR_CONSUMER_CONFIRMATION")
    return failure(400, "INVALID_ACTION", `The servicing action is ${record.status}, not waiting for a confirmation.`);
  if (!confirmed) {
    record.status = "UNCONFIRMED";
    settlePull(ctx, pullId);
    return { ok: true };
  }
  record.status = "SUBMITTING_CONFIRMATION";
  settlePull(ctx, pullId);
  const alive = () =>
    teamState(ctx).servicings.get(actionId) === record && ctx.state.pulls.has(pullId) && !ctx.deliveries.isClosed;
  pause(ctx, 2)
    .then(() => {
      if (!alive()) return;
      record.status = "SUCCESS";
      record.confirmation_data = { ...record.confirmation_data, confirmed_at: ctx.clock.now().toISOString() };
      settlePull(ctx, pullId);
    })
    .catch((error: unknown) =>
      ctx.log(`servicing ${actionId} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  return { ok: true };
}
