import "server-only";
import { z } from "zod";
import type { AgencyzoomConfig } from "@/lib/env";
import { ServiceError } from "@/lib/service/errors";
import { readCappedBytes } from "@/lib/service/read-body";
import type { AgencyzoomLead } from "./agencyzoom-lead";

// AgencyZoom's REST API, from the server only: sign in with the configured user for a JWT (kept
// per process until AgencyZoom refuses it: a 401 on a later call is taken as its expiry, so the
// client signs in once more and retries once, then fails), create and update leads, and read
// the agency's users and pipelines for the admin page. Every call has a timeout, follows no
// redirect (the bearer token must not be handed to another host), reads at most 1 MiB of answer
// and checks the answer's shape before anything is kept.

/** AgencyZoom's answers are small JSON objects; a lead list would be far under this. */
export const MAX_AGENCYZOOM_ANSWER_BYTES = 1024 * 1024;

export type AgencyzoomFailure =
  /** AgencyZoom refused the credentials (login) or the token twice. */
  | "UNAUTHORIZED"
  /** 400: the body was refused; `fieldErrors` name the fields. */
  | "INVALID"
  | "NOT_FOUND"
  /** No answer in time, no connection, a 5xx, a redirect, an answer too large or of the wrong shape. */
  | "UPSTREAM";

export type FieldError = { field: string; error: string };

export class AgencyzoomError extends Error {
  readonly kind: AgencyzoomFailure;
  readonly status: number;
  readonly fieldErrors: FieldError[];
  constructor(kind: AgencyzoomFailure, status: number, message: string, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = "AgencyzoomError";
    this.kind = kind;
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

const loginAnswer = z.object({ jwt: z.string().regex(/^\S+$/) });
/**
 * A lead id as kept and put in a path: AgencyZoom answers a number; its OpenAPI types the path's
 * `leadId` as a string, so a plain token of letters, digits, `-` and `_` is read as one too.
 */
const LEAD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const createdAnswer = z.object({
  id: z.union([z.int().positive(), z.string().regex(LEAD_ID)]).transform(String),
  message: z.string().optional(),
});
const errorAnswer = z
  .object({
    error: z.string().optional(),
    message: z.string().optional(),
    fieldErrors: z
      .array(z.object({ field: z.string(), error: z.string() }).loose())
      .optional()
      .catch(undefined),
  })
  .loose();
const employeesAnswer = z.array(
  z
    .object({
      id: z.int(),
      firstname: z.string().nullish(),
      lastname: z.string().nullish(),
      email: z.string().nullish(),
    })
    .loose(),
);
const pipelinesAnswer = z.array(
  z
    .object({
      id: z.int(),
      name: z.string(),
      stages: z.array(z.object({ id: z.int(), name: z.string() }).loose()).default([]),
    })
    .loose(),
);

export type AgencyzoomEmployee = { id: number; name: string; email: string | null };
export type AgencyzoomPipeline = { id: number; name: string; stages: Array<{ id: number; name: string }> };

/** Tokens by base URL and user: one sign-in per process, not one per send. */
const tokens: Map<string, string> = ((
  globalThis as { __coverdeskAgencyzoomTokens?: Map<string, string> }
).__coverdeskAgencyzoomTokens ??= new Map());
const tokenKey = (config: AgencyzoomConfig) => `${config.baseUrl}\n${config.username}`;

/** Forgets the kept tokens (tests; an admin's "check again"). */
export function forgetAgencyzoomTokens(): void {
  tokens.clear();
}

type Answer = { status: number; body: unknown };

async function call(
  config: AgencyzoomConfig,
  method: "GET" | "POST" | "PUT",
  path: string,
  body: unknown,
  token: string | null,
): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method,
      redirect: "manual",
      signal: AbortSignal.timeout(config.timeoutMs),
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new AgencyzoomError(
      "UPSTREAM",
      0,
      timedOut
        ? `AgencyZoom did not answer within ${Math.round(config.timeoutMs / 1000)} seconds.`
        : "AgencyZoom could not be reached.",
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => {});
    throw new AgencyzoomError(
      "UPSTREAM",
      response.status,
      `AgencyZoom answered ${method} ${path} with a redirect, which is not followed.`,
    );
  }
  let text: string;
  try {
    text = (await readCappedBytes(response, MAX_AGENCYZOOM_ANSWER_BYTES, `AgencyZoom ${method} ${path}`)).toString(
      "utf8",
    );
  } catch (error) {
    if (error instanceof ServiceError)
      throw new AgencyzoomError(
        "UPSTREAM",
        response.status,
        "AgencyZoom's answer was larger than 1 MiB; it was not read.",
      );
    throw new AgencyzoomError("UPSTREAM", response.status, "AgencyZoom's answer was cut off.");
  }
  let parsed: unknown = null;
  if (text.trim() !== "")
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = text;
    }
  return { status: response.status, body: parsed };
}

/** A refusal as an error naming what AgencyZoom said (its `error`/`message`, and the fields). */
function refusal(method: string, path: string, answer: Answer): AgencyzoomError {
  const said = errorAnswer.safeParse(answer.body);
  const words = said.success ? (said.data.error ?? said.data.message) : undefined;
  const fieldErrors = said.success
    ? (said.data.fieldErrors ?? []).map((f) => ({ field: f.field, error: f.error }))
    : [];
  const kind: AgencyzoomFailure =
    answer.status === 400 || answer.status === 422
      ? "INVALID"
      : answer.status === 401 || answer.status === 403
        ? "UNAUTHORIZED"
        : answer.status === 404
          ? "NOT_FOUND"
          : "UPSTREAM";
  const detail = fieldErrors.length > 0 ? fieldErrors.map((f) => `${f.field} ${f.error}`).join("; ") : words;
  return new AgencyzoomError(
    kind,
    answer.status,
    `AgencyZoom refused ${method} ${path} (${answer.status})${detail ? `: ${detail.slice(0, 300)}` : "."}`,
    fieldErrors,
  );
}

async function signIn(config: AgencyzoomConfig): Promise<string> {
  const path = "/v1/api/auth/login";
  const answer = await call(config, "POST", path, { username: config.username, password: config.password }, null);
  if (answer.status === 401 || answer.status === 403)
    throw new AgencyzoomError(
      "UNAUTHORIZED",
      answer.status,
      "AgencyZoom refused the username and password (AGENCYZOOM_USERNAME, AGENCYZOOM_PASSWORD).",
    );
  if (answer.status !== 200 && answer.status !== 201) throw refusal("POST", path, answer);
  const parsed = loginAnswer.safeParse(answer.body);
  if (!parsed.success)
    throw new AgencyzoomError("UPSTREAM", answer.status, "AgencyZoom's sign-in answer carried no token.");
  tokens.set(tokenKey(config), parsed.data.jwt);
  return parsed.data.jwt;
}

/** A call with the kept token; on 401, one new sign-in and one retry. Answers a 2xx, or throws. */
async function authorized(
  config: AgencyzoomConfig,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
): Promise<Answer> {
  const kept = tokens.get(tokenKey(config));
  let answer = await call(config, method, path, body, kept ?? (await signIn(config)));
  if (answer.status === 401) {
    tokens.delete(tokenKey(config));
    answer = await call(config, method, path, body, await signIn(config));
    if (answer.status === 401) {
      tokens.delete(tokenKey(config));
      throw new AgencyzoomError("UNAUTHORIZED", 401, "AgencyZoom refused a token it had just issued.");
    }
  }
  if (answer.status < 200 || answer.status >= 300) throw refusal(method, path, answer);
  return answer;
}

/** POST /v1/api/leads/create: the new lead's id. */
export async function createAgencyzoomLead(config: AgencyzoomConfig, lead: AgencyzoomLead): Promise<string> {
  const answer = await authorized(config, "POST", "/v1/api/leads/create", lead);
  const parsed = createdAnswer.safeParse(answer.body);
  if (!parsed.success)
    throw new AgencyzoomError(
      "UPSTREAM",
      answer.status,
      "AgencyZoom created the lead but its answer named no lead id.",
    );
  return parsed.data.id;
}

/** PUT /v1/api/leads/{id}: throws NOT_FOUND when AgencyZoom no longer has the lead. */
export async function updateAgencyzoomLead(
  config: AgencyzoomConfig,
  leadId: string,
  lead: AgencyzoomLead,
): Promise<void> {
  if (!/^\d{1,18}$/.test(leadId))
    throw new AgencyzoomError("NOT_FOUND", 404, "The kept lead id is not one of AgencyZoom's.");
  await authorized(config, "PUT", `/v1/api/leads/${leadId}`, lead);
}

/** GET /v1/api/employees: the agency's users, for mapping Coverdesk's users to them. */
export async function fetchAgencyzoomEmployees(config: AgencyzoomConfig): Promise<AgencyzoomEmployee[]> {
  const answer = await authorized(config, "GET", "/v1/api/employees");
  const parsed = employeesAnswer.safeParse(answer.body);
  if (!parsed.success)
    throw new AgencyzoomError("UPSTREAM", answer.status, "AgencyZoom's list of users was not a list of users.");
  return parsed.data.map((e) => ({
    id: e.id,
    name: [e.firstname, e.lastname].filter(Boolean).join(" ") || e.email || `User ${e.id}`,
    email: e.email ?? null,
  }));
}

/** GET /v1/api/pipelines-and-stages: where a new lead may be put. */
export async function fetchAgencyzoomPipelines(config: AgencyzoomConfig): Promise<AgencyzoomPipeline[]> {
  const answer = await authorized(config, "GET", "/v1/api/pipelines-and-stages");
  const parsed = pipelinesAnswer.safeParse(answer.body);
  if (!parsed.success)
    throw new AgencyzoomError("UPSTREAM", answer.status, "AgencyZoom's pipelines were not a list of pipelines.");
  return parsed.data.map((p) => ({
    id: p.id,
    name: p.name,
    stages: p.stages.map((s) => ({ id: s.id, name: s.name })),
  }));
}

/**
 * AgencyZoom's own page of a lead, where the pull page links: `/lead/index?id=` on the app's
 * host (app.agencyzoom.com for api.agencyzoom.com; the stand-in serves the same path itself).
 */
export function agencyzoomLeadUrl(config: Pick<AgencyzoomConfig, "baseUrl">, leadId: string): string {
  const base = new URL(config.baseUrl);
  const host = base.hostname === "api.agencyzoom.com" ? "https://app.agencyzoom.com" : base.origin;
  return `${host}/lead/index?id=${encodeURIComponent(leadId)}`;
}
