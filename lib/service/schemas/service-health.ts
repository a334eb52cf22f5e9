import { z } from "zod";
import { describeValue } from "./problems";
import { looseResource } from "./tolerant";

// GET /health (service-notes, "Consent and whitelabel flows"): 200 `{ healthy: true }`, or 500
// `{ healthy: false }`. The flag is the whole answer, so it must be a boolean.

const healthyFlag = z.transform((value: unknown, ctx): boolean => {
  if (typeof value === "boolean") return value;
  ctx.addIssue({
    code: "custom",
    message: value === undefined ? "is missing" : `expected true or false, got ${describeValue(value)}`,
  });
  return z.NEVER;
});

export const serviceHealthResponseSchema = looseResource({ healthy: healthyFlag });
export type ServiceHealthResponse = z.output<typeof serviceHealthResponseSchema>;
