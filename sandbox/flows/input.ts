import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { describeIssues } from "../context";
import { fail, readJson } from "../http";

// Request bodies of the flow and monitoring routes: JSON checked against a zod schema; anything
// else is answered 400 `{"error":"INVALID_INPUT","message":…}` here, and the route gets null.

export async function readBody<S extends z.ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: S,
): Promise<z.output<S> | null> {
  const body = await readJson(req);
  if (!body.ok) {
    fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
    return null;
  }
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues));
    return null;
  }
  return parsed.data;
}
