import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pulls } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { QUOTE_WIDGET_ID, RENEWAL_WIDGET_ID } from "@/sandbox/data/widgets";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { startServiceSandbox } from "@/test/service-sandbox";
import { forgetLinkNames, linkNameOf, nameLinks, getLinkNames } from "./link-names";
import { loadReportsPage } from "@/lib/loaders/reports";
import type { SourceRow } from "./sources";

// The per-link table's names come from the service's list of links (the sandbox over HTTP here),
// kept a few minutes; a service that fails or hangs leaves the aliases and never fails the page.

const TEAM = "7e6d5c4b-3a2f-4e1d-8c0b-9a8f7e6d5c4b";
let sandbox: Sandbox;
let service: ServiceConfig & { teamId: string };
let database: TestDatabase;

const row = (widgetId: string | null, alias: string | null): SourceRow => ({
  key: widgetId ?? `alias:${alias}`,
  label: alias ?? widgetId ?? "No link",
  widgetId,
  alias,
  arrived: 1,
  completed: 1,
  assigned: 0,
  won: 0,
  lost: 0,
  wonCents: 0,
  closeRatio: null,
  medianToFirstTouchMs: null,
  medianToWonMs: null,
  recycledWins: 0,
});

beforeAll(async () => {
  database = await createTestDatabase();
  ({ sandbox, service } = await startServiceSandbox("names", { teamId: TEAM, seed: 8, pullCount: 2 }));
});
afterEach(async () => {
  forgetLinkNames();
  await setFaults(sandbox, { errorRate: 0, latencyMs: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("link names", () => {
  it("reads the names of the team's links from the service, by widget id and by alias", async () => {
    const names = await getLinkNames(service);
    expect(names.answered).toBe(true);
    expect(names.byWidgetId.get(QUOTE_WIDGET_ID)).toBe("Get a better quote in minutes");
    expect(names.byAlias.get("renewal-review")).toBe("Review your coverage before renewal");
    const named = nameLinks(
      [
        row(QUOTE_WIDGET_ID, "get-a-quote"),
        row(null, "renewal-review"),
        row("0b5f8a4e-0000-4000-8000-000000000000", "gone-link"),
      ],
      names,
    );
    expect(named.map((r) => r.label)).toEqual([
      "Get a better quote in minutes",
      "Review your coverage before renewal",
      "gone-link", // a link the service no longer has keeps its alias
    ]);
  });

  it("names a link by its title, else its alias, never the company name every link shares", () => {
    const base = { widget_id: "w1", company_name: "Harbor Point" };
    expect(linkNameOf({ ...base, intro_title: "  Quote  ", public_alias: "q" })).toBe("Quote");
    expect(linkNameOf({ ...base, intro_title: null, public_alias: "q" })).toBe("q");
    expect(linkNameOf({ ...base, intro_title: " ", public_alias: null })).toBe("Harbor Point");
    expect(linkNameOf({ widget_id: "w1", company_name: null, intro_title: null, public_alias: null })).toBe("w1");
  });

  it("keeps the list a few minutes, so pages do not ask the service each time", async () => {
    const now = Date.now();
    expect((await getLinkNames(service, now)).answered).toBe(true);
    await setFaults(sandbox, { errorRate: 1 });
    expect((await getLinkNames(service, now + 60_000)).answered).toBe(true);
    expect((await getLinkNames(service, now + 6 * 60_000)).answered).toBe(false);
  });

  it("falls back to the aliases when the service fails or is slow, and asks again shortly after", async () => {
    await setFaults(sandbox, { errorRate: 1 });
    const now = Date.now();
    const failed = await getLinkNames(service, now);
    expect(failed).toMatchObject({ answered: false });
    expect(nameLinks([row(QUOTE_WIDGET_ID, "get-a-quote")], failed)[0]?.label).toBe("get-a-quote");
    await setFaults(sandbox, { errorRate: 0 });
    expect((await getLinkNames(service, now + 10_000)).answered).toBe(false); // not asked again yet
    expect((await getLinkNames(service, now + 40_000)).answered).toBe(true);

    forgetLinkNames();
    await setFaults(sandbox, { latencyMs: 5_000 });
    const started = Date.now();
    expect((await getLinkNames({ ...service, timeoutMs: 10_000 }, Date.now())).answered).toBe(false);
    expect(Date.now() - started).toBeLessThan(4_500); // the page waits at most 2 s, once
  });

  it("shows the names on the reports page, and the aliases with a word when the service is down", async () => {
    const [pull] = generatePulls(12, 12, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
    if (!pull) throw new Error("no pull");
    await storePull(database.db, pull);
    await database.db
      .update(pulls)
      .set({ widgetId: RENEWAL_WIDGET_ID, publicAlias: "renewal-review" })
      .where(eq(pulls.pullId, pull.pull_id));
    const up = await loadReportsPage(database.db, {}, service);
    expect(up.linkNamesAnswered).toBe(true);
    expect(up.report.sourcesByLink.map((r) => r.label)).toEqual(["Review your coverage before renewal"]);

    forgetLinkNames();
    await setFaults(sandbox, { errorRate: 1 });
    const down = await loadReportsPage(database.db, {}, service);
    expect(down.linkNamesAnswered).toBe(false);
    expect(down.report.sourcesByLink.map((r) => [r.label, r.arrived])).toEqual([["renewal-review", 1]]);
  });
});
