import "server-only";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { readAnswer } from "./read-answer";
import { serviceHealthResponseSchema } from "./schemas";

// Asks the service whether it is up (GET /health, no credentials). It answers 200
// `{ healthy: true }`, or 500 `{ healthy: false }`: that 500 is an answer, not a failed call.
// Not retried, so the answer says how the service is now. No answer at all still throws.

export async function getServiceHealth(config: ServiceConfig): Promise<{ healthy: boolean }> {
  try {
    const response = await serviceRequest(config, {
      method: "GET",
      path: "/health",
      teamScoped: false,
      idempotent: false,
      auth: { kind: "none" },
    });
    return { healthy: readAnswer(serviceHealthResponseSchema, response, "GET /health").value.healthy };
  } catch (error) {
    // The client keeps only the error code of a failed answer; any 500 is the service saying it is not healthy.
    if (error instanceof ServiceError && error.status === 500) return { healthy: false };
    throw error;
  }
}
