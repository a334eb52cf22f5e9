import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer, type Answer } from "./read-answer";
import {
  monitoringDetailResponseSchema,
  monitoringEventsResponseSchema,
  monitoringListResponseSchema,
  monitoringReconnectTokenResponseSchema,
  monitoringRefreshResponseSchema,
  monitoringResponseSchema,
  type Monitoring,
  type MonitoringDetailResponse,
  type MonitoringEventsResponse,
  type MonitoringListResponse,
  type MonitoringReconnectTokenResponse,
} from "./schemas";

// Monitoring keeps a linked account refreshed (service-notes, "Monitorings"). Inputs are checked
// here before any call, so a bad interval is our error message, not a round trip.

/** ISO-8601 durations in days, months or years ("P45D", "P1M", "P1Y"): what the service accepts. */
export const monitoringIntervalSchema = z
  .string()
  .regex(/^P(\d+Y)?(\d+M)?(\d+D)?$/, "Use an ISO-8601 duration of days, months or years, such as P30D, P1M or P1Y.")
  .refine((v) => v !== "P", "The interval is empty.")
  .refine((v) => intervalDays(v) >= 30, "Monitoring can refresh at most every 30 days.");

/** Approximate length in days, for the 30-day minimum (a month counts as 30, a year as 365). */
export function intervalDays(interval: string): number {
  const match = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?$/.exec(interval);
  if (!match) return 0;
  return Number(match[1] ?? 0) * 365 + Number(match[2] ?? 0) * 30 + Number(match[3] ?? 0);
}

const dateTime = z.iso.datetime({ offset: true });
const id = z.string().min(1).max(100);
const path = (monitoringId: string, rest = "") => `/monitorings/${encodeURIComponent(id.parse(monitoringId))}${rest}`;

export const listMonitoringsParamsSchema = z.object({
  limit: z.number().int().min(1).max(100).optional(),
  before: id.optional(),
  pull_id: id.optional(),
  account_identifier: z.string().min(1).optional(),
  status: z.enum(["ACTIVE", "STOPPED"]).optional(),
});

export const enableMonitoringSchema = z.object({
  pull_id: z.uuid(),
  interval: monitoringIntervalSchema,
  next_pull_date: dateTime.optional(),
  stop_after_date: dateTime.optional(),
});

export const updateMonitoringSchema = z
  .object({
    interval: monitoringIntervalSchema.optional(),
    next_pull_date: dateTime.optional(),
    stop_after_date: dateTime.nullable().optional(),
    status: z.enum(["ACTIVE", "STOPPED"]).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "Nothing to change.");

export async function listMonitorings(
  config: ServiceConfig,
  params: z.input<typeof listMonitoringsParamsSchema> = {},
): Promise<Answer<MonitoringListResponse>> {
  const query = listMonitoringsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/monitorings",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(monitoringListResponseSchema, response, "GET /monitorings");
}

export async function enableMonitoring(
  config: ServiceConfig,
  input: z.input<typeof enableMonitoringSchema>,
): Promise<Answer<Monitoring>> {
  const body = enableMonitoringSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/monitorings",
    teamScoped: true,
    idempotent: false,
    body,
  });
  const answer = readAnswer(monitoringResponseSchema, response, "POST /monitorings");
  return { value: answer.value.monitoring, problems: answer.problems };
}

export async function getMonitoring(
  config: ServiceConfig,
  monitoringId: string,
  options: { withPulls?: boolean; limit?: number; before?: string } = {},
): Promise<Answer<MonitoringDetailResponse>> {
  const query = { with_pulls: options.withPulls ? "true" : undefined, limit: options.limit, before: options.before };
  const response = await serviceRequest(config, {
    method: "GET",
    path: path(monitoringId),
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(monitoringDetailResponseSchema, response, "GET /monitorings/:id");
}

export async function updateMonitoring(
  config: ServiceConfig,
  monitoringId: string,
  patch: z.input<typeof updateMonitoringSchema>,
): Promise<Answer<Monitoring>> {
  const body = updateMonitoringSchema.parse(patch);
  const response = await serviceRequest(config, {
    method: "PATCH",
    path: path(monitoringId),
    teamScoped: true,
    idempotent: true,
    body,
  });
  const answer = readAnswer(monitoringResponseSchema, response, "PATCH /monitorings/:id");
  return { value: answer.value.monitoring, problems: answer.problems };
}

/** Stops the monitoring; the service keeps it, with status STOPPED. */
export async function disableMonitoring(config: ServiceConfig, monitoringId: string): Promise<Answer<Monitoring>> {
  const response = await serviceRequest(config, {
    method: "DELETE",
    path: path(monitoringId),
    teamScoped: true,
    idempotent: true,
  });
  const answer = readAnswer(monitoringResponseSchema, response, "DELETE /monitorings/:id");
  return { value: answer.value.monitoring, problems: answer.problems };
}

/** Starts a refresh now; billed like a pull, so never retried. Answers the new pull's id. */
export async function refreshMonitoring(config: ServiceConfig, monitoringId: string): Promise<string> {
  const response = await serviceRequest(config, {
    method: "POST",
    path: path(monitoringId, "/refresh"),
    teamScoped: true,
    idempotent: false,
  });
  return readAnswer(monitoringRefreshResponseSchema, response, "POST /monitorings/:id/refresh").value.pull_id;
}

/** A fresh reconnect token (and hosted reconnect page) for an account that needs the consumer. */
export async function getMonitoringReconnectToken(
  config: ServiceConfig,
  monitoringId: string,
): Promise<Answer<MonitoringReconnectTokenResponse>> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: path(monitoringId, "/reconnectToken"),
    teamScoped: true,
    idempotent: true,
  });
  return readAnswer(monitoringReconnectTokenResponseSchema, response, "GET /monitorings/:id/reconnectToken");
}

/** What changed between the account's previous pull and its latest. */
export async function getMonitoringEvents(
  config: ServiceConfig,
  monitoringId: string,
): Promise<Answer<MonitoringEventsResponse>> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: path(monitoringId, "/events"),
    teamScoped: true,
    idempotent: true,
  });
  return readAnswer(monitoringEventsResponseSchema, response, "GET /monitorings/:id/events");
}
