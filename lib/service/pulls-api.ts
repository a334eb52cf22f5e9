import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { readAnswer, type Answer } from "./read-answer";
import {
  isPlainObject,
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

/** One page of full pulls, in no stated order; `total_pulls` counts every match. */
export async function listPulls(config: ServiceConfig, params: ListPullsParams): Promise<Answer<PullListResponse>> {
  return (await listPullsWithPayloads(config, params)).answer;
}

/** Each listed pull's payload exactly as the service sent it, by pull id. */
function payloadsById(body: unknown): Map<string, unknown> {
  const listed = isPlainObject(body) && Array.isArray(body.pulls) ? body.pulls : [];
  const byId = new Map<string, unknown>();
  for (const item of listed) if (isPlainObject(item) && typeof item.pull_id === "string") byId.set(item.pull_id, item);
  return byId;
}

/** The list read through the schemas, and beside it each pull's payload as it came, to store as received. */
async function listPullsWithPayloads(
  config: ServiceConfig,
  params: ListPullsParams,
): Promise<{ answer: Answer<PullListResponse>; payloads: Map<string, unknown> }> {
  const query = listPullsParamsSchema.parse(params);
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/pulls",
    teamScoped: true,
    idempotent: true,
    query,
  });
  return { answer: readAnswer(pullListResponseSchema, response, "GET /pulls"), payloads: payloadsById(response.body) };
}

/** A window of creation dates: both ends inclusive, as the service reads `since` and `before`; null is open. */
type Window = { from: number | null; to: number | null };

/** Where a window open at its start is taken to begin when it must be cut: no pull is older. */
const EARLIEST = Date.UTC(2000, 0, 1);
/** Offset passes over a window that cannot be cut, before what was not seen is given up on. */
const MAX_PASSES = 20;
const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/** `parts` windows side by side from `low` to `high`, each sharing its end with the next (inclusive ends). */
function evenly(low: number, high: number, parts: number): Window[] {
  const width = (high - low) / parts;
  return Array.from({ length: parts }, (_, i) => ({
    from: Math.floor(low + i * width),
    to: i === parts - 1 ? high : Math.floor(low + (i + 1) * width),
  }));
}

/**
 * Narrower windows covering one that held more than a page, each expected to fit one page; null
 * when the window is a millisecond wide. The page already listed is a sample of where the
 * window's pulls lie: the span it covers is cut in parts, and the stretches on either side of
 * it (usually empty) get a window each. Every window is narrower than the one it came from.
 */
function split(window: Window, count: number | null, limit: number, sample: Pull[]): Window[] | null {
  const low = window.from ?? EARLIEST;
  const high = window.to ?? Math.max(Date.now(), low + 2);
  if (high - low <= 1) return null;
  const parts = Math.min(1_000, Math.max(2, Math.ceil((count ?? 2 * limit) / (limit / 2))));
  const dates = sample
    .map((p) => Date.parse(p.created_at ?? ""))
    .filter((t) => Number.isFinite(t) && t >= low && t <= high);
  const first = Math.min(...dates);
  const last = Math.max(...dates);
  if (dates.length === 0 || last - first < parts) {
    const windows = evenly(low, high, parts);
    return windows.map((w, i) => ({
      from: i === 0 ? window.from : w.from,
      to: i === windows.length - 1 ? window.to : w.to,
    }));
  }
  return [{ from: window.from, to: first }, ...evenly(first, last, parts), { from: last, to: window.to }];
}

export type PullListPage = {
  /** Pulls not yet yielded by this walk. */
  pulls: Pull[];
  /**
   * Each of those pulls' payload as the service sent it, by pull id: what ingestion stores, so
   * a listed copy hashes as the same pull fetched alone (the schemas fill absent fields in).
   */
  payloads: Map<string, unknown>;
  /** How many pulls the whole walk covers, as the service counted them at its first answer. */
  total: number | null;
  /** When the request that brought them was sent: their data is at least this new (storePull's fetchStartedAt). */
  requestedAt: Date;
};

/**
 * Every pull created between `since` and `before`, each once. The service lists in no stated
 * order (service-notes, "Pulls"), so offset paging can skip a pull that another request lists
 * earlier. Instead a window of creation dates is listed only when one page holds all of it:
 * a fuller window is cut into narrower ones until each fits. With `before` fixed, pulls that arrive
 * meanwhile fall outside every window and cannot shift one. Only a single millisecond holding
 * more than a page is paged by offset, repeated until every pull it holds has been seen.
 */
export async function* iteratePullPages(
  config: ServiceConfig,
  params: Omit<ListPullsParams, "offset" | "limit"> & {
    pageSize?: number;
    /** Wraps each list request, e.g. to wait out a rate limit as the caller's budget allows. */
    around?: <T>(call: () => Promise<T>) => Promise<T>;
  } = {},
): AsyncGenerator<PullListPage> {
  const limit = params.pageSize ?? 100;
  const around = params.around ?? ((call) => call());
  const seen = new Set<string>();
  const unseen = (pulls: Pull[]) => pulls.filter((p) => !seen.has(p.pull_id) && Boolean(seen.add(p.pull_id)));
  const pending: Window[] = [
    { from: params.since ? Date.parse(params.since) : null, to: params.before ? Date.parse(params.before) : null },
  ];
  let total: number | null = null;
  let first = true;
  for (let window = pending.pop(); window; window = pending.pop()) {
    const query = { since: iso(window.from), before: iso(window.to), limit };
    const requestedAt = new Date();
    const { answer: page, payloads } = await around(() => listPullsWithPayloads(config, { ...query, offset: 0 }));
    const count = page.value.total_pulls;
    if (first) total = count;
    first = false;
    yield { pulls: unseen(page.value.pulls), payloads, total, requestedAt };
    const whole = count !== null ? count <= limit : page.value.pulls.length < limit;
    if (whole) continue;
    const narrower = split(window, count, limit, page.value.pulls);
    if (narrower) {
      pending.push(...narrower);
      continue;
    }
    // More than a page within one millisecond: paged by offset, pass after pass, until as many
    // pulls as the service counts have been seen (one pass when it keeps its order).
    const inWindow = new Set(page.value.pulls.map((p) => p.pull_id));
    for (let pass = 0; pass < MAX_PASSES && (count === null ? pass === 0 : inWindow.size < count); pass++) {
      for (let offset = 0; offset < (count ?? Infinity); offset += limit) {
        const moreRequestedAt = new Date();
        const { answer: more, payloads: morePayloads } = await around(() =>
          listPullsWithPayloads(config, { ...query, offset }),
        );
        for (const pull of more.value.pulls) inWindow.add(pull.pull_id);
        yield { pulls: unseen(more.value.pulls), payloads: morePayloads, total, requestedAt: moreRequestedAt };
        if (more.value.pulls.length < limit) break;
      }
    }
  }
}

/** Every pull between `since` and `before`, each once, whatever order the service lists them in. */
export async function* iteratePulls(
  config: ServiceConfig,
  params: Omit<ListPullsParams, "offset" | "limit"> & { pageSize?: number } = {},
): AsyncGenerator<Pull> {
  for await (const page of iteratePullPages(config, params)) yield* page.pulls;
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
