import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer, type Answer } from "./read-answer";
import {
  pullIdResponseSchema,
  servicingActionResponseSchema,
  servicingCreatedResponseSchema,
  servicingListResponseSchema,
  type PullSessionResponse,
  type ServicingAction,
  type ServicingCreatedResponse,
  type ServicingListResponse,
} from "./schemas";

// Servicing (service-notes, "Servicing"): asking the service to change a policy at the carrier
// with the login of an existing pull. The request makes a new SERVICING pull; each action then
// waits for the consumer, who confirms through the whitelabel step below (the
// SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION webhook says when). Requests and confirmations are
// never retried: a second request would ask the carrier twice.

const text = z.string().trim().min(1).max(500);
const mortgageeType = z.enum(["FIRST", "SECOND", "THIRD"]);
const mortgagee = z.looseObject({
  carrier_policy_number: text,
  name: text,
  address: text,
  loan_number: z.string().trim().max(100).nullable().optional(),
  mortgagee_type: mortgageeType,
});
/** The fields each action needs; more (the service's reference lists many for a vehicle) pass through. */
export const servicingActionInputSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ADD_MORTGAGEE"), payload: mortgagee }),
  z.object({ type: z.literal("EDIT_MORTGAGEE"), payload: mortgagee }),
  z.object({
    type: z.literal("REMOVE_MORTGAGEE"),
    payload: z.looseObject({ carrier_policy_number: text, mortgagee_type: mortgageeType }),
  }),
  z.object({
    type: z.literal("ADD_VEHICLE"),
    payload: z.looseObject({
      carrier_policy_number: text,
      vehicle: z.looseObject({
        vin: z
          .string()
          .trim()
          .regex(/^[A-HJ-NPR-Z0-9]{17}$/i, "A VIN is 17 letters and digits (no I, O or Q)."),
        model_year: z.number().int().min(1900).max(2100).optional(),
      }),
    }),
  }),
]);
export type ServicingActionInput = z.input<typeof servicingActionInputSchema>;

export const servicingRequestSchema = z.object({
  pull_id: z.uuid(),
  servicing_actions: z.array(servicingActionInputSchema).min(1).max(10),
});

export const listServicingsParamsSchema = z.object({
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
  pull_id: z.uuid().optional(),
});

const idSchema = z.string().trim().min(1).max(100);

export async function requestServicing(
  config: ServiceConfig,
  input: z.input<typeof servicingRequestSchema>,
): Promise<ServicingCreatedResponse> {
  const body = servicingRequestSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/servicings",
    teamScoped: true,
    idempotent: false,
    body,
  });
  return readAnswer(servicingCreatedResponseSchema, response, "POST /servicings").value;
}

export async function listServicings(
  config: ServiceConfig,
  params: z.input<typeof listServicingsParamsSchema> = {},
): Promise<Answer<ServicingListResponse>> {
  const query = listServicingsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/servicings",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(servicingListResponseSchema, response, "GET /servicings");
}

export async function getServicing(config: ServiceConfig, servicingActionId: string): Promise<Answer<ServicingAction>> {
  const path = `/servicings/${encodeURIComponent(idSchema.parse(servicingActionId))}`;
  const response = await serviceRequest(config, { method: "GET", path, teamScoped: true, idempotent: true });
  return readAnswer(servicingActionResponseSchema, response, "GET /servicings/:id");
}

/** The consumer's answer to one action, sent with the servicing pull's pull_jwt; answers the pull id. */
export async function confirmServicingAction(
  config: ServiceConfig,
  session: PullSessionResponse,
  servicingActionId: string,
  isConfirmed: boolean,
): Promise<string> {
  const path = `/widget/pull/${encodeURIComponent(z.uuid().parse(session.pull_id))}/servicingAction`;
  const body = { servicing_action_id: idSchema.parse(servicingActionId), is_confirmed: z.boolean().parse(isConfirmed) };
  const token = z.string().min(1).max(10_000).parse(session.pull_jwt);
  const response = await serviceRequest(config, {
    method: "POST",
    path,
    teamScoped: false,
    idempotent: false,
    body,
    auth: { kind: "pull-jwt", token },
  });
  return readAnswer(pullIdResponseSchema, response, "POST /widget/pull/:id/servicingAction").value.pull_id;
}
