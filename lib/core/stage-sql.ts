import "server-only";
import type { SQL, SQLWrapper } from "drizzle-orm";
import { pulls } from "@/db/schema";
import { stageInOf, stageIsNotOf, stageIsOf, stageLiteral } from "@/db/schema/pull-stage-sql";
import { DECISIONS, WIN_STAGE, type PullStage } from "./stages";

// Stage comparisons in SQL for queries, of pulls.stage unless another column is given (an
// alias, a CTE's column). Built on db/schema/pull-stage-sql.ts, which the partial indexes use
// too: typed by the stage list, and written as literals so those indexes keep matching.

export { stageLiteral };

/** `stage = 'WON'`. */
export function stageIs(stage: PullStage, column: SQLWrapper = pulls.stage): SQL {
  return stageIsOf(column, stage);
}

/** `stage <> 'WORKING'`. */
export function stageIsNot(stage: PullStage, column: SQLWrapper = pulls.stage): SQL {
  return stageIsNotOf(column, stage);
}

/** `stage in ('WON', 'LOST')`. */
export function stageIn(stages: readonly PullStage[], column: SQLWrapper = pulls.stage): SQL {
  return stageInOf(column, stages);
}

/** A win, as isWin (./stages.ts) says in TypeScript. */
export function isWinSql(column: SQLWrapper = pulls.stage): SQL {
  return stageIs(WIN_STAGE, column);
}

/** A decision (won or lost), as isDecision (./stages.ts) says in TypeScript. */
export function isDecisionSql(column: SQLWrapper = pulls.stage): SQL {
  return stageIn(DECISIONS, column);
}
