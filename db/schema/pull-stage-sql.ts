import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PULL_STAGES, type PullStage } from "./pull-stage-values";

// Stage comparisons in SQL, typed by the stage list, so a stage outside it is a type error. Here
// for the partial indexes of ./pulls.ts (db/ imports nothing of lib/); queries use them through
// lib/core/stage-sql.ts. A stage is written as a literal, not a bound parameter: PostgreSQL
// matches a query's predicate to a partial index's only when it can see the value, and the
// migrations drizzle-kit writes from ./pulls.ts stay the same.

/** `'WON'`: a stage as an SQL literal (checked against the list, so nothing else is spliced in). */
export function stageLiteral(stage: PullStage): SQL {
  if (!(PULL_STAGES as readonly string[]).includes(stage)) throw new Error(`Not a pull stage: ${String(stage)}`);
  return sql.raw(`'${stage}'`);
}

/** `column = 'WON'`. */
export function stageIsOf(column: SQLWrapper, stage: PullStage): SQL {
  return sql`${column} = ${stageLiteral(stage)}`;
}

/** `column <> 'WORKING'`. */
export function stageIsNotOf(column: SQLWrapper, stage: PullStage): SQL {
  return sql`${column} <> ${stageLiteral(stage)}`;
}

/** `column in ('WON', 'LOST')`. */
export function stageInOf(column: SQLWrapper, stages: readonly PullStage[]): SQL {
  return sql`${column} in (${sql.join(stages.map(stageLiteral), sql`, `)})`;
}
