import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer, type Answer } from "./read-answer";
import {
  successResponseSchema,
  widgetListResponseSchema,
  widgetResponseSchema,
  type Widget,
  type WidgetListResponse,
} from "./schemas";

// The agency's links (service-notes, "Widgets"): list, read, create, change and delete. Inputs
// are checked here first, so a bad alias or colour is our message, not a round trip. Writes are
// never retried: a create that timed out may have happened, and a second one would be a copy.

const idSchema = z.uuid();
const path = (widgetId: string) => `/widgets/${encodeURIComponent(idSchema.parse(widgetId))}`;

export const listWidgetsParamsSchema = z.object({
  limit: z.number().int().min(1).max(100).optional(),
  /** A widget id: the page continues after it. */
  before: idSchema.optional(),
});

export const widgetFieldsSchema = z.strictObject({
  intro_title: z.string().trim().min(1).max(200).nullable().optional(),
  public_alias: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/i, "Use letters, digits and dashes (2 to 63 characters).")
    .optional(),
  company_name: z.string().trim().min(1).max(200).nullable().optional(),
  brand_color_hex: z
    .string()
    .regex(/^[0-9a-f]{6}$/i, "Use six hex digits (RRGGBB), without #.")
    .nullable()
    .optional(),
  success_message: z.string().trim().min(1).max(1_000).nullable().optional(),
  on_success_redirect_url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional(),
  cobranded_intro_screen: z.boolean().optional(),
  /** The agents who see the link's pulls, by id. */
  agents: z.array(z.uuid()).max(100).optional(),
});
export type WidgetFields = z.input<typeof widgetFieldsSchema>;

const widgetPatchSchema = widgetFieldsSchema.refine((patch) => Object.keys(patch).length > 0, "Nothing to change.");

export async function listWidgets(
  config: ServiceConfig,
  params: z.input<typeof listWidgetsParamsSchema> = {},
): Promise<Answer<WidgetListResponse>> {
  const query = listWidgetsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/widgets",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(widgetListResponseSchema, response, "GET /widgets");
}

export async function getWidget(config: ServiceConfig, widgetId: string): Promise<Answer<Widget>> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: path(widgetId),
    teamScoped: true,
    idempotent: true,
  });
  const answer = readAnswer(widgetResponseSchema, response, "GET /widgets/:id");
  return { value: answer.value.widget, problems: answer.problems };
}

export async function createWidget(config: ServiceConfig, input: WidgetFields): Promise<Answer<Widget>> {
  const body = widgetFieldsSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/widgets",
    teamScoped: true,
    idempotent: false,
    body,
  });
  const answer = readAnswer(widgetResponseSchema, response, "POST /widgets");
  return { value: answer.value.widget, problems: answer.problems };
}

export async function updateWidget(
  config: ServiceConfig,
  widgetId: string,
  patch: WidgetFields,
): Promise<Answer<Widget>> {
  const body = widgetPatchSchema.parse(patch);
  const response = await serviceRequest(config, {
    method: "PATCH",
    path: path(widgetId),
    teamScoped: true,
    idempotent: false,
    body,
  });
  const answer = readAnswer(widgetResponseSchema, response, "PATCH /widgets/:id");
  return { value: answer.value.widget, problems: answer.problems };
}

export async function deleteWidget(config: ServiceConfig, widgetId: string): Promise<void> {
  const response = await serviceRequest(config, {
    method: "DELETE",
    path: path(widgetId),
    teamScoped: true,
    idempotent: false,
  });
  readAnswer(successResponseSchema, response, "DELETE /widgets/:id");
}
