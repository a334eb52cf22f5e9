import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorings, pulls, users } from "@/db/schema";
import { generatePulls } from "@/sandbox/data/pulls";
import type { SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { isFilteredQuery, parsePullListQuery, pullListHref } from "./list-query";
import { countPulls, listPullFilterOptions, listPulls } from "./queries";
import { storePull } from "@/lib/ingest/store-pull";

// The pull list's search, filters and sorts against a real database, on seeded sandbox pulls.

let database: TestDatabase;
let seeded: SandboxPull[];
type Policy = { carrier_policy_number: string; policy_type: string; vehicles: Array<{ vin: string | null }> };
const everyone = { kind: "all" } as const;
const list = (params: Record<string, string>) =>
  listPulls(database.db, everyone, parsePullListQuery(params).query, 1_000);
const ids = async (params: Record<string, string>) => (await list(params)).rows.map((r) => r.pullId);
/** Rows of the list: top-level pulls, neither SERVICING (shown under their request) nor deleted at the service. */
const topLevel = () => seeded.filter((p) => !p.parent_pull_id && p.type !== "SERVICING" && !p.deleted_at);
/** What the list shows by default: those that are not archived. */
const listed = () => topLevel().filter((p) => !p.is_archived);

beforeAll(async () => {
  database = await createTestDatabase();
  seeded = generatePulls(31, 40, new Date());
  for (const pull of seeded) await storePull(database.db, pull);
});
afterAll(async () => {
  await database?.close();
});

describe("searching linked accounts", () => {
  it("finds an account by VIN, policy number, email, formatted phone and several name words", async () => {
    const target = topLevel().find((p) => (p.policies as Policy[]).some((pol) => pol.vehicles?.some((v) => v.vin)));
    if (!target) throw new Error("no pull with a vehicle");
    const policy = (target.policies as Policy[]).find((pol) => pol.vehicles?.some((v) => v.vin));
    const vin = policy?.vehicles.find((v) => v.vin)?.vin ?? "";
    expect(await ids({ q: vin.toLowerCase() })).toContain(target.pull_id);
    expect(await ids({ q: policy?.carrier_policy_number ?? "" })).toContain(target.pull_id);
    expect(await ids({ q: String(target.account_email).split("@")[0] ?? "" })).toContain(target.pull_id);
    const digits = String(target.phone).replace(/\D/g, "").slice(-10);
    expect(await ids({ q: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` })).toContain(
      target.pull_id,
    );
    expect(await ids({ q: `${String(target.first_name)} ${String(target.last_name)}` })).toContain(target.pull_id);
    expect(await ids({ q: "zzqxnothing" })).toEqual([]);
  });

  it("treats LIKE wildcards in the search as plain characters", async () => {
    expect((await ids({ q: "acct_" })).length).toBeGreaterThan(0); // account identifiers have "_"
    expect(await ids({ q: "acct%" })).toEqual([]);
    expect(await ids({ q: "ac_t" })).toEqual([]); // as a wildcard "_" would match "acct"
  });
});

describe("filtering and sorting", () => {
  it("filters by carrier, line of business and status, and never lists child pulls", async () => {
    const all = await ids({});
    expect(all.sort()).toEqual(
      listed()
        .map((p) => p.pull_id)
        .sort(),
    );
    const carrier = String(listed()[0]?.insurance_provider_name);
    const byCarrier = await ids({ carrier });
    expect(byCarrier.length).toBe(listed().filter((p) => p.insurance_provider_name === carrier).length);
    const withFlood = listed().filter((p) => (p.policies as Policy[]).some((pol) => pol.policy_type === "FLOOD"));
    expect((await ids({ policyType: "FLOOD" })).sort()).toEqual(withFlood.map((p) => p.pull_id).sort());
    expect((await ids({ status: "PROVIDER_ERROR" })).length).toBe(
      listed().filter((p) => p.status === "PROVIDER_ERROR").length,
    );
    // An exact combination of lines, as the reports group them.
    const combo = (p: SandboxPull) =>
      [...new Set((p.policies as Policy[]).map((pol) => pol.policy_type))].sort().join(" + ") || "NONE";
    const sample = combo(listed()[0] as SandboxPull);
    expect((await ids({ lines: sample })).sort()).toEqual(
      listed()
        .filter((p) => combo(p) === sample)
        .map((p) => p.pull_id)
        .sort(),
    );
    // No policy at all (a failed link, say) is the combination NONE.
    const none = listed().filter((p) => combo(p) === "NONE");
    expect(none.length).toBeGreaterThan(0);
    expect((await ids({ lines: "NONE" })).sort()).toEqual(none.map((p) => p.pull_id).sort());
  });

  it("filters by stage, assignee (or none), monitoring and archive", async () => {
    const [first, second, third] = listed();
    const [agent] = await database.db
      .insert(users)
      .values({ email: "ana@agency.test", name: "Ana", role: "AGENT", passwordHash: "x" })
      .returning();
    await database.db
      .update(pulls)
      .set({ stage: "WON", assigneeId: agent?.id })
      .where(eq(pulls.pullId, first?.pull_id ?? ""));
    await database.db
      .update(pulls)
      .set({ isArchived: true })
      .where(eq(pulls.pullId, second?.pull_id ?? ""));
    await database.db
      .insert(monitorings)
      .values({ monitoringId: "mon_1", latestPullId: third?.pull_id, status: "ACTIVE" });

    expect(await ids({ stage: "WON" })).toEqual([first?.pull_id]);
    expect(await ids({ assignee: agent?.id ?? "" })).toEqual([first?.pull_id]);
    expect(await ids({ assignee: "unassigned" })).not.toContain(first?.pull_id);
    // Monitoring follows the account: its other pulls (same account identifier) count too.
    const monitored = await ids({ monitored: "yes" });
    expect(monitored).toContain(third?.pull_id);
    for (const id of monitored)
      expect(seeded.find((p) => p.pull_id === id)?.account_identifier).toBe(third?.account_identifier);
    expect(await ids({ monitored: "no" })).not.toContain(third?.pull_id);
    expect(await ids({})).not.toContain(second?.pull_id);
    const archived = await ids({ archived: "only" });
    expect(archived).toContain(second?.pull_id);
    expect(archived).toHaveLength(topLevel().filter((p) => p.is_archived).length + 1);
    expect(await ids({ archived: "include" })).toContain(second?.pull_id);
  });

  it("filters by linked date range and by expiry within N days", async () => {
    const rows = (await list({})).rows;
    const newest = rows[0]?.serviceCreatedAt?.toISOString().slice(0, 10) ?? "";
    const sameDay = await list({ from: newest, to: newest });
    expect(sameDay.rows.length).toBeGreaterThan(0);
    for (const row of sameDay.rows) expect(row.serviceCreatedAt?.toISOString().slice(0, 10)).toBe(newest);
    const soon = await list({ expiring: "30" });
    const today = new Date().toISOString().slice(0, 10);
    const limit = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const row of soon.rows)
      expect(row.nextExpiryDate && row.nextExpiryDate >= today && row.nextExpiryDate <= limit).toBe(true);
    expect(soon.rows.length).toBeGreaterThan(0); // the seeded flood policies expire in 15 days
  });

  it("sorts by premium, name and expiry with empty values last, and pages with a total", async () => {
    const premiums = (await list({ sort: "premium" })).rows.map((r) => r.totalPremiumCents);
    const present = premiums.filter((p): p is number => p !== null);
    expect(present).toEqual([...present].sort((a, b) => b - a));
    expect(premiums.slice(present.length).every((p) => p === null)).toBe(true);
    const ascending = (await list({ sort: "premium", dir: "asc" })).rows
      .map((r) => r.totalPremiumCents)
      .filter((p): p is number => p !== null);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const expiries = (await list({ sort: "expiry" })).rows
      .map((r) => r.nextExpiryDate)
      .filter((d): d is string => d !== null);
    expect(expiries).toEqual([...expiries].sort());

    const page2 = await listPulls(database.db, everyone, { page: 2 }, 10);
    expect(page2.total).toBe(listed().length - 1); // one more archived above
    expect(page2.capped).toBe(false);
    expect(page2.rows).toHaveLength(10);
  });

  it("counts up to its cap and says so past it, while the filters still count exactly below it", async () => {
    const all = listed().length - 1;
    const capped = await listPulls(database.db, everyone, {}, 10, 5);
    expect(capped).toMatchObject({ total: 5, capped: true });
    expect(capped.rows).toHaveLength(10); // the page itself is not cut by the count's cap
    expect(await countPulls(database.db, everyone, {}, all)).toEqual({ total: all, capped: false });
    expect(await countPulls(database.db, everyone, {}, all - 1)).toEqual({ total: all - 1, capped: true });
    const won = await countPulls(database.db, everyone, { stage: "WON" }, 1_000);
    expect(won.capped).toBe(false);
    expect(won.total).toBe((await list({ stage: "WON" })).rows.length);
  });

  it("offers filter choices from the data: carriers, lines, assignees", async () => {
    const options = await listPullFilterOptions(database.db, everyone);
    expect(options.policyTypes).toContain("AUTO");
    expect(options.carriers.length).toBeGreaterThan(1);
    expect(options.assignees.map((a) => a.name)).toContain("Ana");
  });

  it("offers an agent only themselves as an assignee (the list adds Unassigned), not their colleagues", async () => {
    const [bo] = await database.db
      .insert(users)
      .values({ email: "bo@agency.test", name: "Bo", role: "AGENT", passwordHash: "x" })
      .returning();
    const options = await listPullFilterOptions(database.db, { kind: "own-or-unassigned", userId: bo?.id ?? "" });
    expect(options.assignees).toEqual([{ id: bo?.id, name: "Bo" }]);
    expect((await listPullFilterOptions(database.db, everyone)).assignees.map((a) => a.name)).toEqual(
      expect.arrayContaining(["Ana", "Bo"]),
    );
  });
});

describe("the list's URL", () => {
  it("drops and names what it cannot read, and writes back a stable URL", () => {
    const { query, ignored } = parsePullListQuery({
      q: "  smith ",
      stage: "MAYBE",
      expiring: "-4",
      sort: "premium",
      assignee: "nobody",
      from: "2026-02-30x",
      page: "2",
    });
    expect(query).toEqual({ q: "smith", sort: "premium", page: 2 });
    expect(ignored.sort()).toEqual(["assignee", "expiring", "from", "stage"]);
    expect(pullListHref(query)).toBe("/pulls?q=smith&sort=premium&page=2");
    expect(pullListHref(query, { page: 1 })).toBe("/pulls?q=smith&sort=premium");
  });

  it("counts a search or any filter as narrowing the list, but not sort, direction or page", () => {
    expect(isFilteredQuery(parsePullListQuery({ sort: "name", dir: "asc", page: "3" }).query)).toBe(false);
    expect(isFilteredQuery(parsePullListQuery({ q: "smith" }).query)).toBe(true);
    expect(isFilteredQuery(parsePullListQuery({ wonTo: "2026-01-31" }).query)).toBe(true);
    expect(isFilteredQuery(parsePullListQuery({ stage: "MAYBE" }).query)).toBe(false); // dropped, so not a filter
  });
});
