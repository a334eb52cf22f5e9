import type { z } from "zod";
import { AGENT_ROLES } from "./enums-pull";
import { looseResource, openEnum, requiredId, stringList, text } from "./tolerant";

// Agents in two senses (spec 2.6): users of the service's dashboard (Agent) and the agents of
// record found on the insurance account (AgentInfo).

export const agentSchema = looseResource({
  agent_id: requiredId,
  email: text,
  first_name: text,
  last_name: text,
  role: openEnum(AGENT_ROLES, "agent role"),
});
export type Agent = z.output<typeof agentSchema>;

export const agentInfoSchema = looseResource({
  agent_info_id: requiredId,
  address_id: text,
  /** The spec requires one of agency_name or agent_full_name; neither is enforced here. */
  agency_name: text,
  agent_full_name: text,
  phone_number: text,
  email: text,
  policy_ids: stringList,
});
export type AgentInfo = z.output<typeof agentInfoSchema>;
