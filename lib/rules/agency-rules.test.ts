import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agencyRules, auditEvents } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { fromForm } from "@/lib/auth/action-guard";
import {
  agencyRulesSchema,
  DEFAULT_AGENCY_RULES,
  getAgencyRules,
  saveAgencyRules,
  type AgencyRulesInput,
} from "./agency-rules";

// The agency's rules on one page: saved whole by an admin, checked field by field, audited, and
// read back with their defaults (a row edited by hand into nonsense reads as the defaults).

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

const valid: AgencyRulesInput = {
  jumpThresholds: { default: 12, AUTO: 8 },
  digestHour: 6,
  queueAlertsTo: "ADMINS",
  leadTimeDays: 60,
  refreshBudgetPerMonth: 40,
  speedToLeadMinutes: null,
  speedToLeadAction: "RAISE",
};

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => database?.close());
beforeEach(async () => {
  await database.db.delete(agencyRules);
});

describe("the agency's rules", () => {
  it("read as the defaults before anyone saved them: 45 days' lead, no budget, speed to lead off", async () => {
    expect(await getAgencyRules(database.db)).toEqual(DEFAULT_AGENCY_RULES);
    expect(DEFAULT_AGENCY_RULES).toMatchObject({
      leadTimeDays: 45,
      refreshBudgetPerMonth: null,
      speedToLeadMinutes: null,
    });
  });

  it("are saved whole by an admin and audited", async () => {
    expect(await saveAgencyRules(database.db, staff.admin, valid)).toEqual({ ok: true });
    expect(await getAgencyRules(database.db)).toEqual({ ...valid, speedToLeadSince: null });
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "AGENCY_RULES_CHANGED"))
      .orderBy(auditEvents.id);
    expect(audit).toMatchObject({ actorId: staff.admin.id, details: valid });
  });

  it("are refused to managers and agents", async () => {
    for (const actor of [staff.manager, staff.agent]) {
      expect(await saveAgencyRules(database.db, actor, valid)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    }
    expect(await getAgencyRules(database.db)).toEqual(DEFAULT_AGENCY_RULES);
  });

  it.each([
    [{ leadTimeDays: 0 }, "leadTimeDays", /lead time is a whole number of days from 1 to 365/],
    [{ leadTimeDays: 2.5 }, "leadTimeDays", /lead time/],
    [{ leadTimeDays: undefined }, "leadTimeDays", /lead time/],
    [{ refreshBudgetPerMonth: 0 }, "refreshBudgetPerMonth", /refresh budget/],
    [{ refreshBudgetPerMonth: Number.NaN }, "refreshBudgetPerMonth", /refresh budget/],
    [{ speedToLeadMinutes: 2 }, "speedToLeadMinutes", /from 5 to 10080/],
    [{ speedToLeadAction: "FIRE" }, "speedToLeadAction", /what happens/],
    [{ digestHour: 24 }, "digestHour", /0 to 23/],
    [{ jumpThresholds: { default: -1 } }, "jumpThresholds.default", /percent from 0 to 1000/],
    [{ queueAlertsTo: "EVERYONE" }, "queueAlertsTo", /queue's alerts/],
  ])("refuse %o with a message about %s", async (change, field, message) => {
    const result = await saveAgencyRules(database.db, staff.admin, { ...valid, ...change });
    expect(result).toMatchObject({ ok: false, code: "INVALID", field });
    expect(result.ok ? "" : result.message).toMatch(message);
    expect(await getAgencyRules(database.db)).toEqual(DEFAULT_AGENCY_RULES);
  });

  describe("as the rules page's form sends them", () => {
    const page = {
      "jumpThresholds.default": ["12"],
      "jumpThresholds.AUTO": ["8"],
      "jumpThresholds.FLOOD": [""],
      digestHour: ["6"],
      queueAlertsTo: ["ADMINS"],
      leadTimeDays: ["60"],
      refreshBudgetPerMonth: ["40"],
      speedToLeadMinutes: [""],
      speedToLeadAction: ["RAISE"],
    };
    const save = (change: Record<string, string[]>) =>
      saveAgencyRules(database.db, staff.admin, fromForm(agencyRulesSchema, { ...page, ...change }));

    it("read the typed numbers, an empty line's threshold as the default's, an empty wait as the rule off", async () => {
      expect(await save({})).toEqual({ ok: true });
      expect(await getAgencyRules(database.db)).toEqual({ ...valid, speedToLeadSince: null });
      expect(await save({ refreshBudgetPerMonth: [""], speedToLeadMinutes: ["30"] })).toEqual({ ok: true });
      expect(await getAgencyRules(database.db)).toMatchObject({ refreshBudgetPerMonth: null, speedToLeadMinutes: 30 });
    });

    it.each([
      ["leadTimeDays", /lead time is a whole number of days/],
      ["digestHour", /digest hour/],
      ["jumpThresholds.default", /percent from 0 to 1000/],
    ])("refuse %s left empty with its own message, not as 0", async (field, message) => {
      const result = await save({ [field]: [""] });
      expect(result).toMatchObject({ ok: false, code: "INVALID", field });
      expect(result.ok ? "" : result.message).toMatch(message);
      expect(await getAgencyRules(database.db)).toEqual(DEFAULT_AGENCY_RULES);
    });

    it("refuse a word where a number goes, naming the line", async () => {
      const result = await save({ "jumpThresholds.AUTO": ["ten"] });
      expect(result).toMatchObject({ ok: false, field: "jumpThresholds.AUTO" });
      expect(result.ok ? "" : result.message).toMatch(/percent from 0 to 1000/);
    });
  });

  it("date the speed-to-lead rule from when it was switched on, and keep that date while it stays on", async () => {
    const before = Date.now();
    await saveAgencyRules(database.db, staff.admin, { ...valid, speedToLeadMinutes: 30 });
    const on = (await getAgencyRules(database.db)).speedToLeadSince;
    expect(on?.getTime()).toBeGreaterThanOrEqual(before);
    // Another change while it is on (a new wait, a new action) keeps the date: pulls already counted stay counted.
    await saveAgencyRules(database.db, staff.admin, {
      ...valid,
      speedToLeadMinutes: 60,
      speedToLeadAction: "REASSIGN",
    });
    expect((await getAgencyRules(database.db)).speedToLeadSince).toEqual(on);
    // Off, then on again: a new date, so the back catalogue that waited meanwhile is not swept up.
    await saveAgencyRules(database.db, staff.admin, valid);
    expect((await getAgencyRules(database.db)).speedToLeadSince).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later millisecond, surely
    await saveAgencyRules(database.db, staff.admin, { ...valid, speedToLeadMinutes: 30 });
    expect((await getAgencyRules(database.db)).speedToLeadSince?.getTime()).toBeGreaterThan(on?.getTime() ?? 0);
  });

  it("read a row edited by hand into nonsense as the defaults", async () => {
    await database.db.insert(agencyRules).values({ id: 1, leadTimeDays: -5, digestHour: 99 });
    expect(await getAgencyRules(database.db)).toEqual(DEFAULT_AGENCY_RULES);
  });
});
