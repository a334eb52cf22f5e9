// The agency's own people (spec 2.6 Agent): the users a pull can be assigned to, with fixed
// ids. The service has no agents endpoint (they appear only on widgets), so only the seeded
// pulls' funnel assignees use them.

export type TeamAgent = {
  agent_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: "ADMIN" | "AGENT";
};

export const TEAM_AGENTS: readonly TeamAgent[] = [
  {
    agent_id: "a9e1b2c3-0001-4d5e-8f00-000000000001",
    email: "dana.whitfield@agency.example.com",
    first_name: "Dana",
    last_name: "Whitfield",
    role: "ADMIN",
  },
  {
    agent_id: "a9e1b2c3-0002-4d5e-8f00-000000000002",
    email: "alex.rivera@agency.example.com",
    first_name: "Alex",
    last_name: "Rivera",
    role: "AGENT",
  },
  {
    agent_id: "a9e1b2c3-0003-4d5e-8f00-000000000003",
    email: "jordan.blake@agency.example.com",
    first_name: "Jordan",
    last_name: "Blake",
    role: "AGENT",
  },
  {
    agent_id: "a9e1b2c3-0004-4d5e-8f00-000000000004",
    email: "mei.tanaka@agency.example.com",
    first_name: "Mei",
    last_name: "Tanaka",
    role: "AGENT",
  },
];
