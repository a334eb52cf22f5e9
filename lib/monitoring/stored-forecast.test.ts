import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings, refreshForecasts } from "@/db/schema";
import { loadAgencyRulesPage } from "@/lib/loaders/rules";
import { DEFAULT_AGENCY_RULES, saveAgencyRules } from "@/lib/rules/agency-rules";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { getRefreshForecastAsOf, storeRefreshForecast } from "./stored-forecast";

// The rules page shows the refresh forecast stored by the refresh-timing pass, "as of" when it
// was computed, instead of reading every monitoring on each visit; a forecast of other rules
// than the page's is not shown as theirs.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
const mail = { mail: { smtpUrl: null, from: "", outboxDir: "/tmp/coverdesk-forecast-outbox" } };

async function addMonitoring(id: string): Promise<void> {
  await database.db.insert(monitorings).values({ monitoringId: id, status: "ACTIVE", interval: "1 M" } as never);
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("the stored refresh forecast", () => {
  it("is computed once when none is stored, then shown as of that time", async () => {
    await addMonitoring("mon_stored_1");
    const page = await loadAgencyRulesPage(database.db, mail);
    expect(page.forecast.monitored).toBe(1);
    const [row] = await database.db.select().from(refreshForecasts);
    expect(row?.computedAt.getTime()).toBe(page.forecastAsOf.getTime());

    // A monitoring added since: the page keeps showing the stored forecast, and when it was made.
    await addMonitoring("mon_stored_2");
    const again = await loadAgencyRulesPage(database.db, mail);
    expect(again.forecast.monitored).toBe(1);
    expect(again.forecastAsOf.getTime()).toBe(page.forecastAsOf.getTime());

    // The refresh-timing pass stores it anew at its end.
    const stored = await storeRefreshForecast(database.db);
    expect(stored.forecast.monitored).toBe(2);
    const after = await loadAgencyRulesPage(database.db, mail);
    expect(after.forecast.monitored).toBe(2);
    expect(after.forecastAsOf.getTime()).toBe(stored.computedAt.getTime());
  });

  it("is not shown for other rules: a changed lead time or budget computes it again", async () => {
    const saved = await saveAgencyRules(database.db, staff.admin, {
      ...DEFAULT_AGENCY_RULES,
      leadTimeDays: 30,
      refreshBudgetPerMonth: 1,
    });
    expect(saved).toMatchObject({ ok: true });
    const page = await loadAgencyRulesPage(database.db, mail);
    expect(page.forecast.budget).toBe(1);
    const [row] = await database.db.select().from(refreshForecasts);
    expect(row).toMatchObject({ leadTimeDays: 30, budget: 1 });
  });

  it("keeps the later of two computations that end together", async () => {
    const rules = { leadTimeDays: 30, refreshBudgetPerMonth: 1 };
    const later = await storeRefreshForecast(database.db, { rules, now: new Date("2030-01-02T00:00:00Z") });
    await storeRefreshForecast(database.db, { rules, now: new Date("2030-01-01T00:00:00Z") });
    const shown = await getRefreshForecastAsOf(database.db, rules);
    expect(shown.computedAt.toISOString()).toBe(later.computedAt.toISOString());
  });
});
