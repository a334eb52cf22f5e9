import { serviceRequest, type ServiceConfig } from "./client";

// Pull endpoints. Answers are returned unparsed: the caller validates them with the tolerant
// schemas so that one odd field never loses a pull.

export async function fetchPullPayload(config: ServiceConfig, pullId: string, signal?: AbortSignal): Promise<unknown> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: `/pulls/${encodeURIComponent(pullId)}`,
    teamScoped: true,
    idempotent: true,
    signal,
  });
  return response.body;
}

export type ListPullsParams = { since?: string; before?: string; limit?: number; offset?: number };

export async function fetchPullListPage(config: ServiceConfig, params: ListPullsParams): Promise<unknown> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/pulls",
    teamScoped: true,
    idempotent: true,
    query: params,
  });
  return response.body;
}
