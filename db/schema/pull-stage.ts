import "server-only";
import { pgEnum } from "drizzle-orm/pg-core";
import { PULL_STAGES } from "./pull-stage-values";

// pulls.stage as a PostgreSQL enum, made from the one list of stages.
export const pullStage = pgEnum("pull_stage", PULL_STAGES);

export { PULL_STAGES, type PullStage } from "./pull-stage-values";
