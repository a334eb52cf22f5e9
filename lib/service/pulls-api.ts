import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { readAnswer, type Answer } from "./read-answer";
import {
  parsePullResponse,
  pullListResponseSchema,
  successResponseSchema,
  type Pull,
  type PullListResponse,
} from "./schemas";

// Pull endpoints (service-notes, "Pulls"). The ingest worker takes the raw payload so that it
// can store exactly what came; everything else gets answers read through the schemas.

const pullPath = (pullId: string) => `/pulls/${encodeURIComponent(pullId)}`;

export async function fetchPullPayload(config: ServiceConfig, pullId: string, signal?: AbortSignal): Promise<unknown> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: pullPath(pullId),
    teamScoped: true,
    idempotent: true,
    signal,
  });
  return response.body;
}

/** One pull, from the `{ success, pull }` envelope or a bare Pull. */
export async function getPull(config: ServiceConfig, pullId: string): Promise<Answer<Pull>> {
  const body = await fetchPullPayload(config, pullId);
  const parsed = parsePullResponse(body);
  if (!parsed.ok)
    throw new ServiceError({
      status: 200,
      code: "INVALID_RESPONSE",
      message: `GET ${pullPath(pullId)}: ${parsed.error}`,
      retryable: false,
    });
  return { value: parsed.pull, problems: parsed.problems };
}

export const listPullsParamsSchema = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ListPullsParams = z.input<typeof listPullsParamsSchema>;

export async function fetchPullListPage(config: ServiceConfig, params: ListPullsParams): Promise<unknown> {
  const query = listPullsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/pulls",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return response.body;
}

/** One page of full pulls, newest first; `total_pulls` counts every match. */
export async function listPulls(config: ServiceConfig, params: ListPullsParams): Promise<Answer<PullListResponse>> {
  const query = listPullsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/pulls",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(pullListResponseSchema, response, "GET /pulls");
}

/**
 * Every pull between `since` and `before`, page by page. The service pages by offset, so a
 * pull that arrives meanwhile can shift a page; callers store by pull_id, and repeats are harmless.
 */
export async function* iteratePulls(
  config: ServiceConfig,
  params: Omit<ListPullsParams, "offset" | "limit"> & { pageSize?: number } = {},
): AsyncGenerator<Pull> {
  const limit = params.pageSize ?? 100;
  for (let offset = 0; ; offset += limit) {
    const page = await listPulls(config, { since: params.since, before: params.before, limit, offset });
    yield* page.value.pulls;
    const total = page.value.total_pulls ?? 0;
    if (page.value.pulls.length < limit || offset + limit >= total) return;
  }
}

/** The only write on a pull the service offers. */
export async function setPullArchived(config: ServiceConfig, pullId: string, archived: boolean): Promise<void> {
  const response = await serviceRequest(config, {
    method: "PATCH",
    path: pullPath(pullId),
    teamScoped: true,
    idempotent: true,
    body: { is_archived: archived },
  });
  readAnswer(successResponseSchema, response, `PATCH ${pullPath(pullId)}`);
}
