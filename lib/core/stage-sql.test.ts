import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { isDecisionSql, isWinSql, stageIn, stageIs, stageIsNot, stageLiteral } from "./stage-sql";

const text = (fragment: ReturnType<typeof stageIs>) => new PgDialect().sqlToQuery(fragment);

describe("stage comparisons in SQL", () => {
  it("writes stages as literals, so the partial indexes' predicates can match them", () => {
    expect(text(stageIs("WON"))).toEqual({ sql: `"pulls"."stage" = 'WON'`, params: [] });
    expect(text(stageIsNot("WORKING", sql`d.stage`))).toEqual({ sql: `d.stage <> 'WORKING'`, params: [] });
    expect(text(stageIn(["WON", "LOST"]))).toEqual({ sql: `"pulls"."stage" in ('WON', 'LOST')`, params: [] });
  });

  it("says what a win and a decision are from the one vocabulary", () => {
    expect(text(isWinSql()).sql).toBe(`"pulls"."stage" = 'WON'`);
    expect(text(isDecisionSql(sql`e.stage`)).sql).toBe(`e.stage in ('WON', 'LOST')`);
  });

  it("refuses a stage outside the list, in the types and when the types are bypassed", () => {
    // @ts-expect-error QUOTED is not a stage until it is added to the list.
    expect(() => stageIs("QUOTED")).toThrow("Not a pull stage");
    expect(() => stageLiteral("WON' or true --" as never)).toThrow("Not a pull stage");
  });
});
