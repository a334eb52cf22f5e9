import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storePull } from "@/lib/ingest/store-pull";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getLostReasons } from "./queries";
import { parseReportFilter } from "./report-filter";

// Why deals were lost, as the stage form asks it: counted by reason, by the carrier that won and
// by agent, with the premiums they were won at elsewhere; bad input is refused and stores nothing.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const lostReasons = (params: Record<string, string> = {}) =>
  getLostReasons(database.db, parseReportFilter(params).filter);

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("lost reasons", () => {
  it("counts losses by reason, winning carrier and agent, with the premiums lost to", async () => {
    const book = generatePulls(61, 20, new Date())
      .filter((p) => p.status === "SUCCESS" && !p.parent_pull_id)
      .slice(0, 4);
    for (const pull of book) await storePull(database.db, pull);
    const [a, b, c, d] = book.map((p) => p.pull_id) as [string, string, string, string];
    await assignPulls(database.db, staff.manager, { pullIds: [a, b, c], assigneeId: staff.agent.id });
    await assignPulls(database.db, staff.manager, { pullIds: [d], assigneeId: staff.otherAgent.id });
    const lose = (pullId: string, who: typeof staff.agent, extra: Record<string, string>) =>
      setPullStage(database.db, who, { pullId, stage: "LOST", ...extra });
    expect(
      await lose(a, staff.agent, { lostCategory: "PRICE", lostToCarrier: "GEICO", lostToPremium: "1,100.00" }),
    ).toMatchObject({ ok: true });
    expect(await lose(b, staff.agent, { lostCategory: "PRICE", lostToCarrier: "GEICO" })).toMatchObject({ ok: true });
    expect(await lose(c, staff.agent, { lostCategory: "NO_CONTACT" })).toMatchObject({ ok: true });
    expect(
      await lose(d, staff.otherAgent, { lostCategory: "COVERAGE", lostToCarrier: "Allstate", lostToPremium: "900" }),
    ).toMatchObject({ ok: true });

    const rows = await lostReasons();
    const of = (dimension: string) =>
      rows
        .filter((r) => r.dimension === dimension)
        .map(({ key, count, lostToCents, priced }) => ({ key, count, lostToCents, priced }));
    expect(of("reason")).toEqual([
      { key: "PRICE", count: 2, lostToCents: 110_000, priced: 1 },
      { key: "COVERAGE", count: 1, lostToCents: 90_000, priced: 1 },
      { key: "NO_CONTACT", count: 1, lostToCents: 0, priced: 0 },
    ]);
    expect(of("carrier")).toEqual([
      { key: "GEICO", count: 2, lostToCents: 110_000, priced: 1 },
      { key: "Allstate", count: 1, lostToCents: 90_000, priced: 1 },
      { key: null, count: 1, lostToCents: 0, priced: 0 },
    ]);
    expect(rows.filter((r) => r.dimension === "agent").map((r) => [r.label, r.count])).toEqual([
      [staff.agent.name, 3],
      [staff.otherAgent.name, 1],
    ]);
    expect((await lostReasons({ agent: staff.otherAgent.id })).filter((r) => r.dimension === "reason")).toHaveLength(1);
  });

  it("refuses an unknown reason or an unreadable premium, and forgets the details when the pull is worked again", async () => {
    const [pull] = generatePulls(62, 10, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
    if (!pull) throw new Error("no pull");
    await storePull(database.db, pull);
    await assignPulls(database.db, staff.manager, { pullIds: [pull.pull_id], assigneeId: staff.agent.id });
    const before = await lostReasons();
    expect(
      await setPullStage(database.db, staff.agent, { pullId: pull.pull_id, stage: "LOST", lostCategory: "BAD_LUCK" }),
    ).toMatchObject({ ok: false, field: "lostCategory" });
    expect(
      await setPullStage(database.db, staff.agent, {
        pullId: pull.pull_id,
        stage: "LOST",
        lostCategory: "PRICE",
        lostToPremium: "cheap",
      }),
    ).toMatchObject({ ok: false, field: "lostToPremium" });
    expect(await lostReasons()).toEqual(before);
    await setPullStage(database.db, staff.agent, {
      pullId: pull.pull_id,
      stage: "LOST",
      lostCategory: "SERVICE",
      lostToCarrier: "<script>x</script>",
    });
    await setPullStage(database.db, staff.agent, { pullId: pull.pull_id, stage: "WORKING" });
    expect(await lostReasons()).toEqual(before);
  });
});
