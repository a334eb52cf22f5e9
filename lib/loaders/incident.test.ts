import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordRedisclosure } from "@/lib/audit/redisclosure";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { loadIncidentPage } from "./incident";

// The incident page's loader: nothing asked (the form alone), a refused filter in words, a
// report with its CSV address, and the redisclosure log's tab.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("loadIncidentPage", () => {
  it("shows the form alone until something is asked, with every user to choose from", async () => {
    const page = await loadIncidentPage(database.db, {});
    expect(page).toMatchObject({ view: "scope", request: { status: "empty" }, scope: null, csvHref: null });
    if (page.view === "scope") expect(page.people.map((p) => p.name)).toContain(staff.agent.name);
  });

  it("says what is wrong with a filter, and runs nothing", async () => {
    const page = await loadIncidentPage(database.db, { user: staff.agent.id, from: "2026-01-01" });
    expect(page).toMatchObject({ request: { status: "refused", field: "to" }, scope: null });
  });

  it("runs the report and offers its CSV with the same filters", async () => {
    const page = await loadIncidentPage(database.db, { ip: "203.0.113.5", from: "2026-01-01", to: "2026-01-31" });
    expect(page).toMatchObject({ request: { status: "ready" }, scope: { total: 0 } });
    if (page.view === "scope")
      expect(page.csvHref).toBe("/api/admin/incident/csv?ip=203.0.113.5&from=2026-01-01&to=2026-01-31");
  });

  it("shows the redisclosure log on its tab", async () => {
    await recordRedisclosure(database.db, {
      pullIds: [randomUUID()],
      recipient: "internal use",
      purpose: "INSURANCE_CLAIMS",
      actor: staff.manager,
    });
    const page = await loadIncidentPage(database.db, { view: "log" });
    expect(page.view === "log" ? page.log.map((row) => row.purpose) : null).toEqual(["INSURANCE_CLAIMS"]);
  });
});
