import "server-only";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { pulls } from "@/db/schema";
import { DECISIONS, PULL_STAGES, WIN_STAGE, type PullStage } from "./stages";

// Stage comparisons in SQL, from the stage list, so a stage outside it is a type error. A stage is
// written as a literal, not a bound parameter: the partial indexes of db/schema/pulls.ts name
// their stages literally, and PostgreSQL matches a predicate to them only when it can see the value.

/** `'WON'`: a stage as an SQL literal (checked against the list, so nothing else is spliced in). */
export function stageLiteral(stage: PullStage): SQL {
  if (!(PULL_STAGES as readonly string[]).includes(stage)) throw new Error(`Not a pull stage: ${String(stage)}`);
  return sql.raw(`'${stage}'`);
}

/** `stage = 'WON'`, of pulls.stage or of the column given (an alias, a CTE's column). */
export function stageIs(stage: PullStage, column: SQLWrapper = pulls.stage): SQL {
  return sql`${column} = ${stageLiteral(stage)}`;
}

/** `stage <> 'WORKING'`. */
export function stageIsNot(stage: PullStage, column: SQLWrapper = pulls.stage): SQL {
  return sql`${column} <> ${stageLiteral(stage)}`;
}

/** `stage in ('WON', 'LOST')`. */
export function stageIn(stages: readonly PullStage[], column: SQLWrapper = pulls.stage): SQL {
  return sql`${column} in (${sql.join(stages.map(stageLiteral), sql`, `)})`;
}

/** A win, as isWin (./stages.ts) says in TypeScript. */
export function isWinSql(column: SQLWrapper = pulls.stage): SQL {
  return stageIs(WIN_STAGE, column);
}

/** A decision (won or lost), as isDecision (./stages.ts) says in TypeScript. */
export function isDecisionSql(column: SQLWrapper = pulls.stage): SQL {
  return stageIn(DECISIONS, column);
}
