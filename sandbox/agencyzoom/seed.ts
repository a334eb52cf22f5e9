// The AgencyZoom agency the stand-in serves: its users, pipelines and stages, lead sources,
// carriers and product lines. Ids are integers, as AgencyZoom's are. lib/demo saves the demo
// agency's settings with these ids (pipeline 5001, stage 50011, lead source 7001, user 3001).

export const EMPLOYEES = [
  {
    id: 3001,
    firstname: "Dana",
    lastname: "Whitfield",
    email: "dana@agency.example",
    isProducer: true,
    isActive: true,
  },
  { id: 3002, firstname: "Marco", lastname: "Ruiz", email: "marco@agency.example", isProducer: true, isActive: true },
  { id: 3003, firstname: "Priya", lastname: "Shah", email: "priya@agency.example", isProducer: false, isActive: true },
] as const;

export const PIPELINES = [
  {
    id: 5001,
    name: "New Leads Pipeline",
    type: "lead",
    stages: [
      { id: 50011, name: "New Lead", order: 0 },
      { id: 50012, name: "Contacted", order: 1 },
      { id: 50013, name: "Quoted", order: 2 },
    ],
  },
  {
    id: 5002,
    name: "Cross-sell Pipeline",
    type: "lead",
    stages: [
      { id: 50021, name: "Identified", order: 0 },
      { id: 50022, name: "Quoted", order: 1 },
    ],
  },
] as const;

export const LEAD_SOURCES = [
  { id: 7001, name: "Coverdesk (linked account)" },
  { id: 7002, name: "Website" },
  { id: 7003, name: "Referral" },
] as const;

export const CARRIERS = [
  { id: 9001, name: "State Farm" },
  { id: 9002, name: "Progressive" },
  { id: 9003, name: "GEICO" },
] as const;

export const PRODUCT_LINES = [
  { id: 8001, name: "Personal Auto" },
  { id: 8002, name: "Homeowners" },
] as const;

/** The user Coverdesk signs in as, unless SANDBOX_AGENCYZOOM_USERNAME / _PASSWORD say otherwise. */
export const DEMO_USERNAME = "demo@agency.example";
export const DEMO_PASSWORD = "agencyzoom-stand-in";
