import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetAgencyzoomTokens } from "@/lib/handoff/agencyzoom-client";
import { DEMO_PASSWORD, DEMO_USERNAME } from "@/sandbox/agencyzoom/seed";
import { startAgencyZoomSandbox, type AgencyZoomSandbox } from "@/sandbox/agencyzoom/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { loadAgencyzoomPage } from "./agencyzoom";

// The admin's AgencyZoom page: off when unconfigured, AgencyZoom's own pipelines and users when it
// answers, and the reason (with typed ids still possible) when it does not.

let database: TestDatabase;
let az: AgencyZoomSandbox;

beforeAll(async () => {
  database = await createTestDatabase();
  az = await startAgencyZoomSandbox({ port: 0 });
  await createStaff(database.db);
});
afterAll(async () => {
  await az?.close();
  await database?.close();
});

describe("the AgencyZoom admin page", () => {
  it("says the hand-off is off when AgencyZoom is not configured, and still lists the users to map", async () => {
    const page = await loadAgencyzoomPage(database.db, null);
    expect(page.connection).toBeNull();
    expect(page.pipelines).toBeNull();
    expect(page.users.map((u) => u.name)).toContain("Ann Agent");
  });

  it("offers AgencyZoom's pipelines, stages and users when it answers", async () => {
    forgetAgencyzoomTokens();
    const page = await loadAgencyzoomPage(database.db, {
      baseUrl: az.url,
      username: DEMO_USERNAME,
      password: DEMO_PASSWORD,
      timeoutMs: 5000,
    });
    expect(page.connection).toMatchObject({ reachable: true, username: DEMO_USERNAME });
    expect(page.pipelines?.[0]).toMatchObject({
      id: 5001,
      stages: expect.arrayContaining([{ id: 50011, name: "New Lead" }]),
    });
    expect(page.employees?.map((e) => e.id)).toEqual([3001, 3002, 3003]);
  });

  it("says why when AgencyZoom refuses the sign-in", async () => {
    forgetAgencyzoomTokens();
    const page = await loadAgencyzoomPage(database.db, {
      baseUrl: az.url,
      username: DEMO_USERNAME,
      password: "wrong",
      timeoutMs: 5000,
    });
    expect(page.connection).toMatchObject({ reachable: false });
    if (page.connection && !page.connection.reachable) expect(page.connection.error).toMatch(/AGENCYZOOM_PASSWORD/);
    expect(page.pipelines).toBeNull();
  });
});
