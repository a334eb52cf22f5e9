import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { apiErrorSchema, type ApiErrorCode } from "./errors";
import { API_SCOPES, API_SCOPE_LABELS } from "./scopes";
import {
  webhookEndpointCreatedSchema,
  webhookEndpointCreateSchema,
  webhookEndpointIdParamsSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookSecretRotatedSchema,
} from "./webhook-schemas";
import {
  pullDetailSchema,
  pullExportParamsSchema,
  pullIdParamsSchema,
  pullListQuerySchema,
  pullListSchema,
  pullPatchSchema,
} from "./schemas";
import { handoffCreateSchema, handoffResultSchema } from "./handoffs";

// The OpenAPI 3.1 document of /api/v1 (GET /api/v1/openapi.json), written from the very zod
// schemas the routes parse with (./schemas.ts, ./errors.ts): a field added to a handler's
// schema is in the document, and a field the document promises is one the handler checks.
// Every route of app/api/v1 is registered here; lib/api/api.test.ts lints the document and
// checks that it lists them all.

const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

const errorResponse = (description: string, codes: ApiErrorCode[]) => ({
  description: `${description} (code ${codes.join(" or ")})`,
  content: json(apiErrorSchema),
});

const idempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().meta({
    description:
      "Any unique string (a UUID). The first answer is kept 24 hours and replayed, with `Idempotent-Replayed: true`, to a retry with the same key; the same key with another body is refused (422).",
  }),
});

const commonErrors = {
  "401": errorResponse("No API key, or an unknown or revoked one", ["UNAUTHORIZED"]),
  "403": errorResponse("The key lacks the route's scope, or the change is not allowed", ["FORBIDDEN"]),
  "429": {
    ...errorResponse("Too many calls for this key; wait the seconds in Retry-After", ["RATE_LIMITED"]),
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" as const } } },
  },
};

export const API_ROUTES = [
  "GET /api/v1/openapi.json",
  "GET /api/v1/pulls",
  "GET /api/v1/pulls/{pull_id}",
  "PATCH /api/v1/pulls/{pull_id}",
  "GET /api/v1/pulls/{pull_id}/exports/{format}",
  "POST /api/v1/pulls/{pull_id}/handoffs",
  "POST /api/v1/webhook-endpoints",
  "GET /api/v1/webhook-endpoints",
  "GET /api/v1/webhook-endpoints/{endpoint_id}",
  "DELETE /api/v1/webhook-endpoints/{endpoint_id}",
  "POST /api/v1/webhook-endpoints/{endpoint_id}/rotate-secret",
] as const;

export function buildOpenApiDocument(serverUrl = "/"): ReturnType<OpenApiGeneratorV31["generateDocument"]> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: `An API key made by an admin on Admin → API keys or with \`npm run api-key\`. Scopes: ${API_SCOPES.map((scope) => `\`${scope}\` (${API_SCOPE_LABELS[scope]})`).join(", ")}.`,
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tags: ["Meta"],
    security: [],
    responses: {
      "200": {
        description: "The OpenAPI 3.1 document of the API.",
        content: { "application/json": { schema: z.object({}).loose() } },
      },
    },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/pulls",
    operationId: "listPulls",
    summary: "List linked accounts (pulls), oldest change first",
    description:
      "Keyset-paged by last change (its data, stage, owner or premium). Follow `next_cursor` until it is null; keep the last `updated_at` and pass it as `updated_since` to read only what changed since. Scope `pulls:read`.",
    tags: ["Pulls"],
    security: [{ apiKey: ["pulls:read"] }],
    request: { query: pullListQuerySchema },
    responses: {
      "200": { description: "A page of pulls.", content: json(pullListSchema) },
      "400": errorResponse("A bad limit, cursor or updated_since; `field` names it", ["INVALID"]),
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/pulls/{pull_id}",
    operationId: "getPull",
    summary: "One linked account: the household, its policies, vehicles, dwellings, drivers and the agency's stage",
    description: "Scope `pulls:read`. Every read is kept in the audit trail under the key's name.",
    tags: ["Pulls"],
    security: [{ apiKey: ["pulls:read"] }],
    request: { params: pullIdParamsSchema },
    responses: {
      "200": { description: "The pull.", content: json(pullDetailSchema) },
      "404": errorResponse("No such pull", ["NOT_FOUND"]),
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/api/v1/pulls/{pull_id}",
    operationId: "changePull",
    summary: "Move a pull to WON (with its premium), LOST (with why) or WORKING, or change who works it",
    description:
      "Goes through the same commands and permission rules as the pull page's forms, and is audited under the key's name. `assignee_email` is applied before `stage`, in one transaction. Scope `pulls:write`.",
    tags: ["Pulls"],
    security: [{ apiKey: ["pulls:write"] }],
    request: {
      params: pullIdParamsSchema,
      headers: idempotencyHeader,
      body: { required: true, content: json(pullPatchSchema) },
    },
    responses: {
      "200": {
        description: "The pull as it now is.",
        content: json(pullDetailSchema),
        headers: {
          "Idempotent-Replayed": {
            description: "`true` when this is the kept answer to an earlier request with the same Idempotency-Key.",
            schema: { type: "string" as const },
          },
        },
      },
      "400": errorResponse("Bad input; `field` names it", ["INVALID"]),
      "404": errorResponse("No such pull", ["NOT_FOUND"]),
      "409": errorResponse("The pull changed meanwhile, or the same Idempotency-Key is still being answered", [
        "CONFLICT",
      ]),
      "422": errorResponse("The Idempotency-Key was used with another request", ["IDEMPOTENCY_MISMATCH"]),
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/pulls/{pull_id}/exports/{format}",
    operationId: "exportPull",
    summary: "The pull as a file for the agency's rating system: EZLynx applicant XML (EZAUTO, EZHOME V200)",
    description:
      "`ezlynx-auto`: the applicant, up to six drivers and six vehicles, prior policy and limits; `ezlynx-home`: the applicant and one dwelling. What a file leaves out is listed on the pull's page. Scope `pulls:read`. The file carries drivers' data: each export is kept in the audit trail and the DPPA redisclosure log.",
    tags: ["Pulls"],
    security: [{ apiKey: ["pulls:read"] }],
    request: { params: pullExportParamsSchema },
    responses: {
      "200": {
        description: "The XML file, as an attachment.",
        content: { "application/xml": { schema: z.string() } },
      },
      "404": errorResponse("No such pull, or it has no auto (or home) for this file", ["NOT_FOUND"]),
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v1/pulls/{pull_id}/handoffs",
    operationId: "handOffPull",
    summary: "Send the pull to AgencyZoom as a lead (created the first time, updated after)",
    description:
      "The lead carries the person, contact details, address, date of birth, marital status and a note of the coverage, drivers and vehicles; AgencyZoom's pipeline, stage, lead source, country and assignee come from the admin's settings (Admin → AgencyZoom). Coverdesk keeps AgencyZoom's lead id, so a later send updates that lead instead of creating a second one. Send an Idempotency-Key to make a retry safe. Each send is kept in the audit trail and the redisclosure log. Scope `handoffs:write`.",
    tags: ["Pulls"],
    security: [{ apiKey: ["handoffs:write"] }],
    request: {
      params: pullIdParamsSchema,
      headers: idempotencyHeader,
      body: { required: true, content: json(handoffCreateSchema) },
    },
    responses: {
      "201": { description: "A new lead was created.", content: json(handoffResultSchema) },
      "200": { description: "The kept lead was updated.", content: json(handoffResultSchema) },
      "400": errorResponse("Bad input; `field` names it", ["INVALID"]),
      "404": errorResponse("No such pull", ["NOT_FOUND"]),
      "409": errorResponse("The same Idempotency-Key is still being answered", ["CONFLICT"]),
      "422": errorResponse(
        "AgencyZoom refused the lead, or a value it requires is missing (`field` names it); or the Idempotency-Key was used with another request",
        ["TARGET_REFUSED", "IDEMPOTENCY_MISMATCH"],
      ),
      "502": errorResponse("AgencyZoom failed or did not answer; nothing was kept, retry later", ["TARGET_FAILED"]),
      "503": errorResponse("AgencyZoom is not configured on this Coverdesk", ["TARGET_UNAVAILABLE"]),
      ...commonErrors,
    },
  });

  const webhooks = {
    tags: ["Webhooks"],
    security: [{ apiKey: ["webhooks:write"] }],
  };
  const notFound = { "404": errorResponse("No such endpoint", ["NOT_FOUND"]) };

  registry.registerPath({
    method: "post",
    path: "/api/v1/webhook-endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Register an endpoint for outgoing webhooks (a REST hook's subscribe)",
    description:
      "Deliveries follow Standard Webhooks 1.0: `webhook-id`, `webhook-timestamp` and `webhook-signature` headers, signed with the `secret` in this answer (shown once). Failed deliveries are retried for about 28 hours; an answer of 410 disables the endpoint. Scope `webhooks:write`.",
    ...webhooks,
    request: { headers: idempotencyHeader, body: { required: true, content: json(webhookEndpointCreateSchema) } },
    responses: {
      "201": { description: "The endpoint, with its secret.", content: json(webhookEndpointCreatedSchema) },
      "400": errorResponse("Bad input, or an address that may not receive webhooks; `field` names it", ["INVALID"]),
      "409": errorResponse("The same Idempotency-Key is still being answered", ["CONFLICT"]),
      "422": errorResponse("The Idempotency-Key was used with another request", ["IDEMPOTENCY_MISMATCH"]),
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/webhook-endpoints",
    operationId: "listWebhookEndpoints",
    summary: "The endpoints registered, newest first",
    description: "Scope `webhooks:write`. Secrets are never listed.",
    ...webhooks,
    responses: { "200": { description: "The endpoints.", content: json(webhookEndpointListSchema) }, ...commonErrors },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v1/webhook-endpoints/{endpoint_id}",
    operationId: "getWebhookEndpoint",
    summary: "One endpoint",
    description: "Scope `webhooks:write`.",
    ...webhooks,
    request: { params: webhookEndpointIdParamsSchema },
    responses: {
      "200": { description: "The endpoint.", content: json(webhookEndpointSchema) },
      ...notFound,
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v1/webhook-endpoints/{endpoint_id}",
    operationId: "deleteWebhookEndpoint",
    summary: "Delete an endpoint (a REST hook's unsubscribe); its pending deliveries are dropped",
    description: "Scope `webhooks:write`.",
    ...webhooks,
    request: { params: webhookEndpointIdParamsSchema },
    responses: {
      "200": {
        description: "Deleted.",
        content: json(z.object({ id: z.uuid(), deleted: z.literal(true) })),
      },
      ...notFound,
      ...commonErrors,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    summary: "A new signing secret; the old one keeps signing beside it for 24 hours",
    description:
      "During the overlap `webhook-signature` carries two signatures, space-separated; a receiver verifying with either secret accepts the message. Scope `webhooks:write`.",
    ...webhooks,
    request: { params: webhookEndpointIdParamsSchema },
    responses: {
      "200": { description: "The new secret.", content: json(webhookSecretRotatedSchema) },
      ...notFound,
      ...commonErrors,
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Coverdesk API",
      version: "1.0.0",
      description:
        'The agency\'s linked accounts (pulls) for other systems. Errors are `{ "error": { "code", "message", "field" } }` with a stable code. See docs/api.md.',
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "Pulls", description: "Linked accounts and the agency's funnel." },
      { name: "Webhooks", description: "Outgoing webhooks (Standard Webhooks 1.0): endpoints and their secrets." },
      { name: "Meta", description: "The API's own description." },
    ],
  });
}
