// The agency's funnel for a pull, named once. The database type of pulls.stage is made from
// this list (./pull-stage.ts), and forms, filters, reports and commands read it through
// lib/workflow/stages.ts. A plain list with no imports, so a client component that shows the
// stages ships three strings, not the schema.
export const PULL_STAGES = ["WORKING", "WON", "LOST"] as const;
export type PullStage = (typeof PULL_STAGES)[number];
