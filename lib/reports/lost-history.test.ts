import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { lostDecisions, pulls } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import type { Actor } from "@/lib/core/actor";
import { assignPulls } from "@/lib/workflow/assignment";
import { listAuditEvents } from "@/lib/audit/audit-log";
import { returnRecycledDeals } from "@/lib/workflow/deal-returns";
import { setPullStage } from "@/lib/workflow/funnel";
import { addDays, isoDay } from "@/lib/xdates/derive";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getLostReasons, getWonAndCloseRatio } from "./queries";
import { parseReportFilter } from "./report-filter";

// What the agency recorded stays recorded: a loss counts in the period it was decided, with its
// reason and whose it was, after the deal came back at its X-date and however often it is lost
// again; a stage changed by hand undoes the pull's own loss; refused input changes nothing.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const DAY = 86_400_000;
const TODAY = isoDay();
const NOW = new Date(`${TODAY}T12:00:00Z`);
const LOST_AT = new Date(NOW.getTime() - 150 * DAY);
const LOST_DAY = isoDay(LOST_AT);
const LINK = "spring-mailer";
const [template] = generatePulls(43, 1, new Date());

/** A pull of its own account, through LINK, with one auto policy that renews in 20 days, assigned to Ann. */
async function assignedDeal(account: string): Promise<string> {
  if (!template) throw new Error("no template pull");
  const base = (template.policies as Array<Record<string, unknown>>)[0];
  const pull = {
    ...template,
    pull_id: randomUUID(),
    status: "SUCCESS",
    account_identifier: account,
    created_at: new Date(NOW.getTime() - 200 * DAY).toISOString(),
    parent_pull_id: null,
    public_alias: LINK,
    policies: [
      {
        ...base,
        policy_id: "auto-1",
        carrier_policy_number: `N-${account}`,
        policy_type: "AUTO",
        status: "ACTIVE",
        canceled_date: null,
        effective_date: addDays(TODAY, -345),
        expiry_date: addDays(TODAY, 20),
        renewal_date: null,
      },
    ],
  };
  await storePull(database.db, pull);
  expect(
    await assignPulls(database.db, staff.manager, { pullIds: [pull.pull_id], assigneeId: staff.agent.id }),
  ).toMatchObject({ ok: true });
  return pull.pull_id;
}

const lose = (pullId: string, at: Date, extra: Record<string, string> = {}, who: Actor = staff.agent) =>
  setPullStage(database.db, who, { pullId, stage: "LOST", ...extra }, at);
const priceToGeico = {
  lostCategory: "PRICE",
  lostToCarrier: "GEICO",
  lostToPremium: "1,480.00",
  lostReason: "Cheaper elsewhere",
};

/** The lost-reasons report as the page reads its URL, one dimension. */
async function lostBy(dimension: "reason" | "carrier" | "agent", params: Record<string, string> = {}) {
  const rows = await getLostReasons(database.db, parseReportFilter(params).filter);
  return rows
    .filter((r) => r.dimension === dimension)
    .map(({ label, count, lostToCents, priced }) => ({ label, count, lostToCents, priced }));
}
const onDay = (day: string) => ({ from: day, to: day });
const lostInRatio = async (params: Record<string, string>) =>
  (await getWonAndCloseRatio(database.db, parseReportFilter(params).filter)).closeRatio.lost;
const stageOf = async (pullId: string) =>
  (await database.db.select({ stage: pulls.stage }).from(pulls).where(eq(pulls.pullId, pullId)))[0]?.stage;
const historyOf = (pullId: string) => database.db.select().from(lostDecisions).where(eq(lostDecisions.pullId, pullId));

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("losses kept in history", () => {
  let returned = "";

  it("counts a deal that came back in the period it was lost, with its reason, and not in the period of its return", async () => {
    returned = await assignedDeal("acct_came_back");
    expect(await lose(returned, LOST_AT, priceToGeico)).toMatchObject({ ok: true });
    expect(await returnRecycledDeals(database.db, { today: TODAY, now: NOW })).toBe(1);
    expect(await stageOf(returned)).toBe("WORKING");

    const lostThen = [{ label: "PRICE", count: 1, lostToCents: 148_000, priced: 1 }];
    expect(await lostBy("reason", onDay(LOST_DAY))).toEqual(lostThen);
    expect(await lostBy("carrier", onDay(LOST_DAY))).toEqual([{ ...lostThen[0], label: "GEICO" }]);
    expect(await lostBy("agent", onDay(LOST_DAY))).toEqual([{ ...lostThen[0], label: "Ann Agent" }]);
    expect(await lostBy("reason")).toEqual(lostThen);
    expect(await lostInRatio({ ...onDay(LOST_DAY), agent: staff.agent.id })).toBe(1);
    // Under the report's line and link filters, as the pull had them.
    expect(await lostBy("reason", { ...onDay(LOST_DAY), line: "AUTO" })).toEqual(lostThen);
    expect(await lostBy("reason", { ...onDay(LOST_DAY), line: "HOMEOWNERS" })).toEqual([]);
    expect(await lostBy("reason", { ...onDay(LOST_DAY), link: LINK })).toEqual(lostThen);
    expect(await lostBy("reason", { ...onDay(LOST_DAY), link: "another-link" })).toEqual([]);
    // The return is no loss.
    expect(await lostBy("reason", onDay(TODAY))).toEqual([]);
    expect(await lostInRatio(onDay(TODAY))).toBe(0);

    // The pull's history tells both, with why it was lost.
    const { rows } = await listAuditEvents(database.db, { pullId: returned });
    const sentences = rows.map(auditSentence);
    expect(sentences).toContain(
      "Ann Agent moved the pull from Working to Lost: Price · to GEICO at $1,480.00 a year · Cheaper elsewhere",
    );
    expect(sentences).toContainEqual(
      expect.stringMatching(/^The X-date nears: back to Working for Ann Agent\. Lost in /),
    );
  });

  it("counts a deal lost, come back and lost again twice, each in its own period; undoing the second keeps the first", async () => {
    const again = new Date(NOW.getTime() + 60_000);
    expect(await lose(returned, again, { lostCategory: "COVERAGE" })).toMatchObject({ ok: true });
    expect(await lostBy("reason")).toEqual([
      { label: "COVERAGE", count: 1, lostToCents: 0, priced: 0 },
      { label: "PRICE", count: 1, lostToCents: 148_000, priced: 1 },
    ]);
    expect(await lostBy("reason", onDay(TODAY))).toEqual([{ label: "COVERAGE", count: 1, lostToCents: 0, priced: 0 }]);
    expect(await lostBy("reason", onDay(LOST_DAY))).toEqual([
      { label: "PRICE", count: 1, lostToCents: 148_000, priced: 1 },
    ]);
    expect(await lostInRatio({ agent: staff.agent.id })).toBe(2);

    // Taken back by hand: only the pull's standing loss goes.
    expect(
      await setPullStage(
        database.db,
        staff.agent,
        { pullId: returned, stage: "WORKING" },
        new Date(again.getTime() + 1),
      ),
    ).toMatchObject({ ok: true });
    expect(await lostBy("reason", onDay(TODAY))).toEqual([]);
    expect(await lostBy("reason")).toEqual([{ label: "PRICE", count: 1, lostToCents: 148_000, priced: 1 }]);
    expect(await lostInRatio({ agent: staff.agent.id })).toBe(1);
  });

  it("undoes a loss set back to working or won by hand, and counts a corrected one once, as corrected", async () => {
    const before = await lostBy("reason");
    const undone = await assignedDeal("acct_undone");
    expect(await lose(undone, LOST_AT, { lostCategory: "SERVICE" })).toMatchObject({ ok: true });
    expect(await setPullStage(database.db, staff.agent, { pullId: undone, stage: "WORKING" })).toMatchObject({
      ok: true,
    });
    const won = await assignedDeal("acct_won_after_all");
    expect(await lose(won, LOST_AT, { lostCategory: "SERVICE" })).toMatchObject({ ok: true });
    expect(
      await setPullStage(database.db, staff.agent, { pullId: won, stage: "WON", premium: "900" }, LOST_AT),
    ).toMatchObject({ ok: true });
    expect(await lostBy("reason")).toEqual(before);
    expect((await getWonAndCloseRatio(database.db, onDay(LOST_DAY))).closeRatio).toMatchObject({ won: 1, lost: 1 });

    const corrected = await assignedDeal("acct_corrected");
    expect(await lose(corrected, LOST_AT, { lostCategory: "SERVICE" })).toMatchObject({ ok: true });
    expect(await lose(corrected, LOST_AT, { lostCategory: "NO_CONTACT" })).toMatchObject({ ok: true });
    expect(await lostBy("reason", onDay(LOST_DAY))).toEqual([
      { label: "NO_CONTACT", count: 1, lostToCents: 0, priced: 0 },
      { label: "PRICE", count: 1, lostToCents: 148_000, priced: 1 },
    ]);
  });

  it("refuses bad input and leaves the loss standing", async () => {
    const standing = await assignedDeal("acct_refused");
    expect(await lose(standing, LOST_AT, { lostCategory: "OTHER" })).toMatchObject({ ok: true });
    const history = await historyOf(standing);
    const report = await getLostReasons(database.db, {});

    expect(await lose(standing, NOW, { lostCategory: "BAD_LUCK" })).toMatchObject({ ok: false, field: "lostCategory" });
    expect(await lose(standing, NOW, { lostCategory: "PRICE", lostToPremium: "cheap" })).toMatchObject({
      ok: false,
      field: "lostToPremium",
    });
    expect(
      await setPullStage(database.db, staff.agent, { pullId: standing, stage: "WON", premium: "-5" }),
    ).toMatchObject({ ok: false, field: "premium" });
    expect(await setPullStage(database.db, staff.agent, { pullId: standing, stage: "GONE" })).toMatchObject({
      ok: false,
      field: "stage",
    });
    expect(
      await setPullStage(database.db, staff.agent, { pullId: standing, stage: "WORKING", expectedStage: "WORKING" }),
    ).toMatchObject({ ok: false, code: "STALE" });
    // Not hers: another agent cannot take her loss back.
    expect(await setPullStage(database.db, staff.otherAgent, { pullId: standing, stage: "WORKING" })).toMatchObject({
      ok: false,
    });
    expect(await setPullStage(database.db, staff.agent, { pullId: "not-a-pull", stage: "WORKING" })).toMatchObject({
      ok: false,
    });

    expect(await stageOf(standing)).toBe("LOST");
    expect(await historyOf(standing)).toEqual(history);
    expect(await getLostReasons(database.db, {})).toEqual(report);
    // A report address that cannot be read is left out, not guessed at.
    const unread = parseReportFilter({ from: "March", to: "2026-13-45", agent: "ann" });
    expect(unread.ignored.sort()).toEqual(["agent", "from", "to"]);
    expect(await getLostReasons(database.db, unread.filter)).toEqual(report);
  });
});
