import { z } from "zod";
import { parseTolerant, type TolerantResult } from "./problems";
import { parsePull, pullSchema, type ParsePullResult, type Pull } from "./pull";
import { bool, integer, isPlainObject, looseResource, requiredArray, requiredId, requiredText, text } from "./tolerant";

// The envelopes the service wraps resources in. The spec and the real service disagree on
// some (a bare Pull versus `{ success, pull }`), so each accepts every form that is in use.

/** The pull inside a get-pull answer: `{ success, pull }` from the service, a bare Pull per spec. */
export function unwrapPull(body: unknown): unknown {
  if (isPlainObject(body) && !("pull_id" in body) && isPlainObject(body.pull)) return body.pull;
  return body;
}

/** GET /pulls/:pullId, enveloped or bare; yields the Pull. Problem paths stay relative to it. */
export const pullResponseSchema = z.transform((body: unknown, ctx): Pull => {
  const result = pullSchema.safeParse(unwrapPull(body));
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

/** `parsePull` for a get-pull answer in either form. */
export function parsePullResponse(body: unknown): ParsePullResult {
  return parsePull(unwrapPull(body));
}

/** GET /pulls: one page of full pulls. A pull without a usable pull_id is dropped and reported. */
export const pullListResponseSchema = looseResource({
  total_pulls: integer,
  pulls: requiredArray(pullSchema, "pull"),
});
export type PullListResponse = z.output<typeof pullListResponseSchema>;

export function parsePullListResponse(body: unknown): TolerantResult<PullListResponse> {
  return parseTolerant(pullListResponseSchema, body);
}

/** Every error answer: `{ error: "CODE" }`, sometimes with a message. */
export const errorBodySchema = looseResource({ error: requiredText, message: text });
export type ErrorBody = z.output<typeof errorBodySchema>;

/** The error code and message of an error answer, or null when the body is not one. */
export function parseErrorBody(body: unknown): ErrorBody | null {
  const result = errorBodySchema.safeParse(body);
  return result.success ? result.data : null;
}

/** PATCH /pulls/:pullId and other writes that only confirm. */
export const successResponseSchema = looseResource({ success: bool });
export type SuccessResponse = z.output<typeof successResponseSchema>;

/** A download answer: a short-lived signed URL that needs no credentials. */
export const documentUrlResponseSchema = looseResource({ url: requiredText });
export type DocumentUrlResponse = z.output<typeof documentUrlResponseSchema>;

/** POST /widget/pull/reconnectToken and /widget/pull/consentAndConnect: a pull session. */
export const pullSessionResponseSchema = looseResource({ pull_id: requiredId, pull_jwt: requiredText });
export type PullSessionResponse = z.output<typeof pullSessionResponseSchema>;
