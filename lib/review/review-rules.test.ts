import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agencyRules, auditEvents } from "@/db/schema";
import { getAgencyRules, saveAgencyRules } from "@/lib/rules/agency-rules";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { fromForm } from "@/lib/auth/action-guard";
import { REVIEW_RULE_IDS } from "./finding";
import {
  DEFAULT_REVIEW_RULES,
  getReviewRules,
  getReviewSettings,
  reviewRulesInputSchema,
  saveReviewRules,
  type ReviewRulesInput,
} from "./review-rules";

// The coverage review's rules: `{}` (or no row) reads as the defaults (100/300, $100,000 PD,
// $1,000 deductibles, 80% coinsurance, $300,000 liability, every check on); an admin saves them
// whole, checked field by field and audited; a row edited by hand into nonsense reads as the
// defaults; and they live beside the agency's other rules without disturbing them.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

const valid: ReviewRulesInput = {
  bodilyInjuryPerPersonCents: 250_000_00,
  bodilyInjuryPerAccidentCents: 500_000_00,
  propertyDamageCents: 250_000_00,
  deductibleCeilingCents: 2_500_00,
  coinsurancePercent: 90,
  personalLiabilityCents: 500_000_00,
  off: ["home-water-backup", "policy-data"],
};

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => database?.close());
beforeEach(async () => {
  await database.db.delete(agencyRules);
});

describe("the coverage review's rules", () => {
  it("read as the defaults with no row, and with the column's `{}`", async () => {
    expect(await getReviewRules(database.db)).toEqual(DEFAULT_REVIEW_RULES);
    expect(DEFAULT_REVIEW_RULES).toEqual({
      bodilyInjuryPerPersonCents: 10_000_000,
      bodilyInjuryPerAccidentCents: 30_000_000,
      propertyDamageCents: 10_000_000,
      deductibleCeilingCents: 100_000,
      coinsurancePercent: 80,
      personalLiabilityCents: 30_000_000,
      off: [],
    });
    await database.db.insert(agencyRules).values({ id: 1 });
    expect(await getReviewRules(database.db)).toEqual(DEFAULT_REVIEW_RULES);
  });

  it("are saved whole by an admin, audited, and read back with the agency's lead time", async () => {
    expect(await saveReviewRules(database.db, staff.admin, valid)).toEqual({ ok: true });
    expect(await getReviewRules(database.db)).toEqual(valid);
    expect(await getReviewSettings(database.db)).toEqual({ ...valid, leadTimeDays: 45 });
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "REVIEW_RULES_CHANGED"))
      .orderBy(asc(auditEvents.id));
    expect(audit).toMatchObject({ actorId: staff.admin.id, details: valid });
  });

  it("leave the agency's other rules alone, and are left alone by them", async () => {
    await saveAgencyRules(database.db, staff.admin, {
      jumpThresholds: { default: 12 },
      digestHour: 6,
      queueAlertsTo: "ADMINS",
      leadTimeDays: 60,
      refreshBudgetPerMonth: null,
      speedToLeadMinutes: null,
      speedToLeadAction: "RAISE",
    });
    await saveReviewRules(database.db, staff.admin, valid);
    expect((await getAgencyRules(database.db)).leadTimeDays).toBe(60);
    await saveAgencyRules(database.db, staff.admin, {
      jumpThresholds: { default: 15 },
      digestHour: 7,
      queueAlertsTo: "MANAGERS",
      leadTimeDays: 30,
      refreshBudgetPerMonth: null,
      speedToLeadMinutes: null,
      speedToLeadAction: "RAISE",
    });
    expect(await getReviewSettings(database.db)).toEqual({ ...valid, leadTimeDays: 30 });
  });

  it("are refused to managers and agents", async () => {
    for (const actor of [staff.manager, staff.agent])
      expect(await saveReviewRules(database.db, actor, valid)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await getReviewRules(database.db)).toEqual(DEFAULT_REVIEW_RULES);
  });

  it.each([
    [
      "a negative floor",
      { bodilyInjuryPerPersonCents: -1 },
      "bodilyInjuryPerPersonCents",
      /per person is a whole number of dollars/,
    ],
    [
      "a floor that is not a number",
      { propertyDamageCents: Number.NaN },
      "propertyDamageCents",
      /property-damage floor/,
    ],
    ["a floor past $10 million", { personalLiabilityCents: 10_000_000_01 }, "personalLiabilityCents", /\$10,000,000/],
    [
      "a per-accident floor under the per-person one",
      { bodilyInjuryPerPersonCents: 300_000_00, bodilyInjuryPerAccidentCents: 100_000_00 },
      "bodilyInjuryPerAccidentCents",
      /at least the floor per person/,
    ],
    ["a coinsurance share of 40%", { coinsurancePercent: 40 }, "coinsurancePercent", /from 50 to 100/],
    [
      "a missing deductible ceiling",
      { deductibleCeilingCents: undefined },
      "deductibleCeilingCents",
      /deductible ceiling/,
    ],
    ["an unknown check", { off: ["auto-everything"] }, "off", /checks to run/],
  ])("refuse %s, naming the field", async (_label, change, field, message) => {
    const result = await saveReviewRules(database.db, staff.admin, { ...valid, ...change });
    expect(result).toMatchObject({ ok: false, code: "INVALID", field });
    expect(result.ok ? "" : result.message).toMatch(message);
    expect(await getReviewRules(database.db)).toEqual(DEFAULT_REVIEW_RULES);
  });

  describe("as the rules page's form sends them", () => {
    // Limits typed in dollars as an agent types them; the checks that run, ticked.
    const page = {
      bodilyInjuryPerPerson: ["250,000"],
      bodilyInjuryPerAccident: ["$500,000"],
      propertyDamage: [" 250000 "],
      deductibleCeiling: ["2,500.00"],
      coinsurancePercent: ["90"],
      personalLiability: ["500000"],
      on: REVIEW_RULE_IDS.filter((rule) => !valid.off.includes(rule)),
    };
    const read = (change: Record<string, string[]>) =>
      reviewRulesInputSchema.safeParse(fromForm(reviewRulesInputSchema, { ...page, ...change }));

    it("read the dollars as cents and the unticked checks as the ones switched off, and save them", async () => {
      const rules = read({});
      expect(rules).toMatchObject({ success: true, data: valid });
      expect(await saveReviewRules(database.db, staff.admin, rules.data)).toEqual({ ok: true });
      expect(await getReviewRules(database.db)).toEqual(valid);
      expect(read({ deductibleCeiling: ["1,000.5"] }).data?.deductibleCeilingCents).toBe(1_000_50);
      expect(read({ propertyDamage: ["0"] }).data?.propertyDamageCents).toBe(0);
      // Nothing ticked: every check switched off.
      expect(reviewRulesInputSchema.parse(fromForm(reviewRulesInputSchema, { ...page, on: [] })).off).toEqual([
        ...REVIEW_RULE_IDS,
      ]);
    });

    it.each([
      ["bodilyInjuryPerPerson", [""], /per person is a whole number of dollars/],
      ["deductibleCeiling", [""], /deductible ceiling/],
      ["coinsurancePercent", [""], /coinsurance share/],
      ["propertyDamage", ["lots"], /property-damage floor/],
      ["personalLiability", ["10,000,000.01"], /\$10,000,000/],
      ["bodilyInjuryPerAccident", ["100,000"], /at least the floor per person/],
      ["on", ["auto-everything"], /checks to run/],
    ])("refuse %s sent as %j with its own message, naming the input", (field, sent, message) => {
      const rules = read({ [field]: sent });
      expect(rules.success).toBe(false);
      expect(rules.error?.issues[0]?.path[0]).toBe(field);
      expect(rules.error?.issues[0]?.message).toMatch(message);
    });
  });

  it("read a row edited by hand into nonsense as the defaults", async () => {
    for (const nonsense of [
      { bodilyInjuryPerPersonCents: "lots" },
      { coinsurancePercent: 7 },
      { off: "everything" },
      ["not", "an", "object"],
      "a string",
    ]) {
      await database.db.delete(agencyRules);
      await database.db.insert(agencyRules).values({ id: 1, reviewRules: nonsense });
      expect(await getReviewRules(database.db)).toEqual(DEFAULT_REVIEW_RULES);
    }
  });

  it("read a row saved before a field existed with that field's default", async () => {
    await database.db.insert(agencyRules).values({ id: 1, reviewRules: { propertyDamageCents: 50_000_00 } });
    expect(await getReviewRules(database.db)).toEqual({ ...DEFAULT_REVIEW_RULES, propertyDamageCents: 50_000_00 });
  });
});
