import { z } from "zod";
import type { CommandFailure } from "@/lib/core/result";

// Every refusal of the public API has one shape, `{ "error": { "code", "message", "field"? } }`,
// with a code from this list that never changes meaning (clients branch on it) and, for bad
// input, the field it is about: a body or query field by its name (`premium_cents`,
// `limit`), a header by its name (`Idempotency-Key`).

export const API_ERROR_STATUS = {
  /** No key, a malformed, unknown or revoked key. */
  UNAUTHORIZED: 401,
  /** The key lacks the route's scope, or the pages' rules refuse the change. */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** Bad input; `field` names it. */
  INVALID: 400,
  /** The pull changed meanwhile, or the same Idempotency-Key is still being answered. */
  CONFLICT: 409,
  /** An Idempotency-Key already used with another request. */
  IDEMPOTENCY_MISMATCH: 422,
  /** The agency system a hand-off goes to refused it, or a value it requires is missing; `field` names it. */
  TARGET_REFUSED: 422,
  /** Too many calls for this key; wait Retry-After seconds. */
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** The agency system a hand-off goes to failed or did not answer; nothing was kept, retry later. */
  TARGET_FAILED: 502,
  /** The agency system a hand-off goes to is not configured on this Coverdesk. */
  TARGET_UNAVAILABLE: 503,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;
export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).meta({ description: "Stable; clients branch on it." }),
      message: z.string().meta({ description: "For a person; may change." }),
      field: z.string().optional().meta({ description: "The input field, query parameter or header at fault." }),
    }),
  })
  .meta({ id: "Error" });
export type ApiErrorBody = z.output<typeof apiErrorSchema>;

/**
 * An answer of a handler: its status and JSON body (kept as is for an Idempotency-Key replay),
 * or a file (an export) sent as it is.
 */
export type ApiAnswer = {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  file?: { content: string; contentType: string; filename: string };
};

export function apiError(
  code: ApiErrorCode,
  message: string,
  field?: string,
  headers?: Record<string, string>,
): ApiAnswer {
  const body: ApiErrorBody = { error: { code, message, ...(field ? { field } : {}) } };
  return { status: API_ERROR_STATUS[code], body, headers };
}

/** A command's refusal (the pages' commands), as the API answers it; `fields` renames its fields. */
export function commandRefusal(failure: CommandFailure, fields: Record<string, string> = {}): ApiAnswer {
  const field = failure.field ? (fields[failure.field] ?? failure.field) : undefined;
  switch (failure.code) {
    case "STALE":
    case "CONFLICT":
      return apiError("CONFLICT", failure.message, field);
    default:
      return apiError(failure.code, failure.message, field);
  }
}

/** The first issue of a zod refusal, naming its field (`policies.0.name`; an unknown key by its name). */
export function invalidInput(error: z.ZodError, prefix?: string): ApiAnswer {
  const issue = error.issues[0];
  if (!issue) return apiError("INVALID", "The input could not be read.");
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const path = [...issue.path.map(String), ...(keys[0] ? [keys[0]] : [])].join(".");
  const message = issue.code === "unrecognized_keys" ? `Unknown field: ${keys.join(", ")}.` : issue.message;
  return apiError("INVALID", message, path || prefix);
}

export function toResponse(answer: ApiAnswer, extra: Record<string, string> = {}): Response {
  if (answer.file)
    return new Response(answer.file.content, {
      status: answer.status,
      headers: {
        "content-type": answer.file.contentType,
        "content-disposition": `attachment; filename="${answer.file.filename.replace(/["\\\r\n]/g, "")}"`,
        "cache-control": "no-store",
        ...answer.headers,
        ...extra,
      },
    });
  return Response.json(answer.body, {
    status: answer.status,
    headers: { "cache-control": "no-store", ...answer.headers, ...extra },
  });
}
