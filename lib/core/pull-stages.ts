// The pull stages for pages and components, which do not import db/ themselves: the vocabulary
// is lib/core/stages.ts, made from the list in db/schema/pull-stage-values.ts.
export { PULL_STAGES, type PullStage } from "@/lib/core/stages";
