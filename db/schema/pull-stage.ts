import { pgEnum } from "drizzle-orm/pg-core";

// The agency's funnel for a pull, defined once: the database type of pulls.stage, and from it
// the list and the TypeScript type that forms, filters, reports and commands use. Kept apart
// from the tables so that client components can import the list without the schema.
export const pullStage = pgEnum("pull_stage", ["WORKING", "WON", "LOST"]);

export const PULL_STAGES = pullStage.enumValues;
export type PullStage = (typeof PULL_STAGES)[number];
