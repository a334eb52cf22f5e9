import "server-only";
import type { z } from "zod";
import type { ServiceResponse } from "./client";
import { ServiceError } from "./errors";
import { parseTolerant, type PayloadProblem } from "@/lib/service/schemas/problems";

// Every answer is read through the tolerant schemas: odd fields become null and are reported,
// and only an answer missing what the call is for (an id, a token) fails, with its own code.

export type Answer<T> = { value: T; problems: PayloadProblem[] };

export function readAnswer<S extends z.ZodType>(
  schema: S,
  response: ServiceResponse,
  label: string,
): Answer<z.output<S>> {
  const result = parseTolerant(schema, response.body);
  if (!result.ok) {
    throw new ServiceError({
      status: response.status,
      code: "INVALID_RESPONSE",
      message: `${label}: unexpected answer (${result.error})`,
      retryable: false,
    });
  }
  return { value: result.value, problems: result.problems };
}
