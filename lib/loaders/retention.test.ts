import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { loadRetentionPage } from "./retention";

// The retention page's loader: the dry run counts for the next scheduled run unless the admin
// names a coming day; a past, malformed or far-off day is said to be ignored, never an error.

let database: TestDatabase;
const NOW = new Date("2026-02-27T12:00:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("the retention page", () => {
  it("counts for the next run by default, with the schedule's defaults and nothing held", async () => {
    const page = await loadRetentionPage(database.db, {}, NOW);
    expect(page.runAt.toISOString()).toBe("2026-02-28T03:30:00.000Z");
    expect(page).toMatchObject({ chosenDay: null, ignoredDay: false, holds: [], lastRuns: [] });
    expect(page.schedule.AUDIT_TRAIL).toBe(84);
    expect(page.due.accounts).toEqual({ PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 });
  });

  it("counts for the run on a coming day the admin names", async () => {
    const page = await loadRetentionPage(database.db, { on: "2026-03-01" }, NOW);
    expect(page.runAt.toISOString()).toBe("2026-03-01T03:30:00.000Z");
    expect(page).toMatchObject({ chosenDay: "2026-03-01", ignoredDay: false });
  });

  it.each(["2026-02-01", "2026-02-27", "2060-01-01", "tomorrow", "2026-13-45"])(
    "shows the next run instead of %s, saying so",
    async (on) => {
      const page = await loadRetentionPage(database.db, { on }, NOW);
      expect(page.runAt.toISOString()).toBe("2026-02-28T03:30:00.000Z");
      expect(page).toMatchObject({ chosenDay: null, ignoredDay: true });
    },
  );
});
