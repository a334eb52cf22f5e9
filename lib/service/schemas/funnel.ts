import type { z } from "zod";
import { FUNNEL_STAGES } from "./enums-pull";
import { lenient, looseResource, num, openEnum, text } from "./tolerant";

// The deal stage the service reports for a pull (spec 2.2). It is read-only in the API, so
// this is imported information only; the agency keeps its own funnel.

/** Nested in the funnel rather than listed, so a missing agent_id does not lose the name. */
export const pullAssigneeSchema = looseResource({
  agent_id: text,
  email: text,
  first_name: text,
  last_name: text,
});
export type PullAssignee = z.output<typeof pullAssigneeSchema>;

export const pullFunnelSchema = looseResource({
  assignee: lenient(pullAssigneeSchema, "an agent"),
  /** Total premium won; meaningful when the stage is WON. */
  premium: num,
  stage: openEnum(FUNNEL_STAGES, "funnel stage"),
});
export type PullFunnel = z.output<typeof pullFunnelSchema>;
