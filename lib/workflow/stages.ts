// The pull stages for pages and components, which do not import db/ themselves. Defined in
// db/schema/pull-stage-values.ts, the one place to rename or add a stage.
export { PULL_STAGES, type PullStage } from "@/db/schema/pull-stage-values";
