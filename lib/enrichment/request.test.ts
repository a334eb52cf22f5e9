import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Connection } from "@/db/connect";
import { auditEvents, enrichmentAnswers, pulls, redisclosures } from "@/db/schema";
import type { Db } from "@/db/types";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { parsePull, type Pull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { controlSandbox, linkStoredAccount, startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { requestEnrichment } from "./request";
import { completeEnrichmentRows, enrichmentPanelOf } from "./panel";
import { driverSubjectsOf, dwellingSubjectsOf } from "./question";
import { getAccountEnrichment } from "./store";
import { AGENCY_DPPA_PURPOSES } from "./purposes";

// Paid look-ups on a real database against the sandbox over HTTP: confirmed before calling,
// claimed before calling so concurrent asks pay once, kept and reused (NO_DATA included),
// FAILED asked again, the DPPA purpose required and audited (never the date of birth), the
// pull's permissions, and bad input refused in words. Each service call is counted on the way
// out of the client, so "paid once" is a count of real requests.

const TEAM = "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;
let calls: string[] = [];
let pullId = "";
let pull: Pull;
let account = "";

/** Service calls made to the enrichment routes since the last reset. */
const lookups = () => calls.filter((url) => url.includes("/enrich/"));

const ask = (actor: Actor, input: Record<string, unknown>, db: Db = database.db, waitMs = 10_000) =>
  requestEnrichment(db, service, actor, { pullId, confirm: "yes", ...input }, { waitMs });

const rows = () => database.db.select().from(enrichmentAnswers).orderBy(asc(enrichmentAnswers.id));
const audits = () =>
  database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, "ENRICHMENT_REQUESTED"))
    .orderBy(asc(auditEvents.id));

/** A copy of the linked account's pull with changes, stored as another account (or a refresh). */
async function storeVariant(
  newPullId: string,
  accountIdentifier: string,
  change: (raw: Record<string, unknown>) => void,
) {
  const [row] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, pullId));
  const raw = structuredClone(row?.raw) as Record<string, unknown>;
  raw.pull_id = newPullId;
  raw.account_identifier = accountIdentifier;
  change(raw);
  const stored = await storePull(database.db, raw);
  if (stored.outcome === "invalid") throw new Error(stored.error);
  return newPullId;
}

const asUser = (actor: Actor): Actor => ({ ...actor, sessionId: "s" });

async function panelOf(id: string, actor: Actor) {
  const [row] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, id));
  const parsed = parsePull(row?.raw);
  if (!parsed.ok) throw new Error("unreadable pull");
  const kept = await completeEnrichmentRows(database.db, parsed.pull, await getAccountEnrichment(database.db, id));
  return enrichmentPanelOf(
    parsed.pull,
    { assigneeId: staff.agent.id, officeId: null, accountHeld: false },
    asUser(actor),
    kept,
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  const started = await startServiceSandbox("enrichment", { teamId: TEAM, seed: 23, pullCount: 4 });
  sandbox = started.sandbox;
  service = {
    ...started.service,
    fetch: (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    },
  };
  pullId = await linkStoredAccount(database.db, sandbox, started.service, "user_good");
  await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, pullId));
  const [row] = await database.db
    .select({ raw: pulls.raw, account: pulls.accountIdentifier })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  const parsed = parsePull(row?.raw);
  if (!parsed.ok) throw new Error("the linked pull does not parse");
  pull = parsed.pull;
  // The service's pull carries no account: it was joined from the link's webhook.
  account = row?.account ?? "";
  if (!account) throw new Error("the linked pull joined no account");
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate enrichment_answers, audit_events, redisclosures`);
  await controlSandbox(sandbox, "faults", { errorRate: 0, latencyMs: 0 });
  await controlSandbox(sandbox, "plan", { enrichment: true });
  calls = [];
});

const home = () => {
  const subject = dwellingSubjectsOf(pull)[0];
  if (!subject?.address) throw new Error("the linked account has no home with an address");
  return subject;
};
const driverWithBirthDate = () => {
  const subject = driverSubjectsOf(pull).find((d) => d.dateOfBirth && d.firstName && d.lastName);
  if (!subject) throw new Error("the linked account has no driver with a date of birth");
  return subject;
};

describe("a property look-up", () => {
  it("is refused without the explicit confirm, and nothing is asked or kept", async () => {
    const result = await requestEnrichment(database.db, service, staff.agent, {
      pullId,
      kind: "PROPERTY_DATA",
      subjectKey: home().subjectKey,
    });
    expect(result).toMatchObject({ ok: false, code: "INVALID", field: "confirm" });
    if (!result.ok) expect(result.message).toMatch(/charged to the agency/);
    expect(lookups()).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it("pays once for two concurrent asks, keeps the answer, and reuses it without calling again", async () => {
    // The service answers slowly, so the second ask arrives while the first is under way.
    await controlSandbox(sandbox, "faults", { latencyMs: 300 });
    const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
    const [first, second] = await Promise.all([ask(staff.agent, input), ask(staff.manager, input)]);
    expect(first.ok && second.ok).toBe(true);
    expect(lookups()).toHaveLength(1);
    expect(lookups()[0]).toContain(`/teams/${TEAM}/enrich/propertyData?address=`);
    expect([first, second].map((r) => (r.ok ? r.paid : null)).sort()).toEqual([false, true]);
    const [row] = await rows();
    expect(await rows()).toHaveLength(1);
    expect(row).toMatchObject({
      kind: "PROPERTY_DATA",
      status: "ANSWERED",
      accountKey: account,
      pullId,
      subjectKey: home().subjectKey,
      purpose: null,
    });
    expect(row?.questionKey).toMatch(/^[0-9a-f]{64}$/);
    expect((row?.answer as { data: unknown }).data).toBeTruthy();
    expect(await audits()).toHaveLength(1);
    expect((await audits())[0]).toMatchObject({
      pullId,
      details: { kind: "PROPERTY_DATA", subject: home().address, status: "ANSWERED" },
    });

    // Asked again later, by anyone: the kept answer, no call.
    await controlSandbox(sandbox, "faults", { latencyMs: 0 });
    const again = await ask(staff.admin, input);
    expect(again).toMatchObject({ ok: true, paid: false });
    if (again.ok) expect(again.message).toMatch(/Nothing was charged/);
    expect(lookups()).toHaveLength(1);
  });

  it("pays once when two app instances (two connections) ask at the same moment", async () => {
    // Without DATABASE_URL the test database is an in-memory PGlite, which one connection holds.
    const url = process.env.DATABASE_URL;
    let second: Connection | null = null;
    if (url && !database.name.startsWith("pglite")) {
      const target = new URL(url);
      target.pathname = `/${database.name}`;
      second = await openDatabase({ kind: "postgres", url: target.toString(), maxConnections: 2 });
    }
    try {
      await controlSandbox(sandbox, "faults", { latencyMs: 200 });
      const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
      const results = await Promise.all([
        ask(staff.agent, input, database.db),
        ask(staff.agent, input, second?.db ?? database.db),
        ask(staff.manager, input, second?.db ?? database.db),
      ]);
      expect(results.every((r) => r.ok)).toBe(true);
      expect(lookups()).toHaveLength(1);
      expect(await rows()).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });

  it("shows the kept answer on the account's page, and on a refresh of the account, with who asked", async () => {
    await ask(staff.agent, { kind: "PROPERTY_DATA", subjectKey: home().subjectKey });
    const refresh = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a001", account, () => {});
    const comparisons: unknown[] = [];
    for (const id of [pullId, refresh]) {
      const panel = await panelOf(id, staff.agent);
      const shown = panel.homes.find((h) => h.address === home().address);
      expect(shown?.answer).toMatchObject({ status: "ANSWERED", kept: true, askedByName: "Ann Agent" });
      expect(shown?.answer?.comparison?.lines.map((l) => l.label)).toEqual([
        "Year built",
        "Size",
        "Construction",
        "Roof covering",
        "Roof shape",
      ]);
      // The refresh shows the very comparison the first pull did (the sandbox's public record
      // may or may not differ from this carrier's file: enrichment-compare.test.ts words both).
      comparisons.push(shown?.answer?.comparison);
      expect(panel.canRequest).toBe(true);
    }
    expect(comparisons[1]).toEqual(comparisons[0]);
    expect(lookups()).toHaveLength(1);
  });

  it("shows an answer kept for another account that asked the same question, and never pays for it again", async () => {
    await ask(staff.agent, { kind: "PROPERTY_DATA", subjectKey: home().subjectKey });
    const other = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a002", "acct_same_home", () => {});
    const panel = await panelOf(other, staff.manager);
    expect(panel.homes[0]?.answer).toMatchObject({ status: "ANSWERED", kept: true });
    const again = await requestEnrichment(
      database.db,
      service,
      staff.manager,
      { pullId: other, kind: "PROPERTY_DATA", subjectKey: home().subjectKey, confirm: "yes" },
      { waitMs: 0 },
    );
    expect(again).toMatchObject({ ok: true, paid: false });
    expect(lookups()).toHaveLength(1);
  });

  it("keeps 'no property data' as an answer, not asked again", async () => {
    const nowhere = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a003", "acct_nowhere", (raw) => {
      for (const policy of raw.policies as Array<{ dwellings?: Array<{ address?: Record<string, unknown> }> }>)
        for (const dwelling of policy.dwellings ?? []) if (dwelling.address) dwelling.address.zip = "00000";
    });
    const [subject] = dwellingSubjectsOf((await loadPull(nowhere)) as Pull);
    const input = { pullId: nowhere, kind: "PROPERTY_DATA", subjectKey: subject?.subjectKey, confirm: "yes" };
    const first = await requestEnrichment(database.db, service, staff.manager, input);
    expect(first).toMatchObject({ ok: true, paid: true });
    if (first.ok) expect(first.message).toMatch(/no property data/);
    expect((await rows())[0]).toMatchObject({ status: "NO_DATA", error: "NO_PROPERTY_DATA" });
    expect(await requestEnrichment(database.db, service, staff.manager, input)).toMatchObject({
      ok: true,
      paid: false,
    });
    expect(lookups()).toHaveLength(1);
    const panel = await panelOf(nowhere, staff.manager);
    expect(panel.homes[0]?.answer).toMatchObject({
      status: "NO_DATA",
      kept: true,
      note: "Public records have no property data for this address.",
      comparison: null,
    });
  });

  it("keeps a plan refusal as FAILED, says so in words, and asks again once the plan allows it", async () => {
    await controlSandbox(sandbox, "plan", { enrichment: false });
    const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
    const refused = await ask(staff.agent, input);
    expect(refused).toMatchObject({ ok: false, code: "CONFLICT" });
    if (!refused.ok) expect(refused.message).toMatch(/plan does not include this look-up/);
    expect(await rows()).toEqual([expect.objectContaining({ status: "FAILED", error: "FORBIDDEN", answer: null })]);
    expect((await audits())[0]?.details).toMatchObject({ status: "FAILED", error: "FORBIDDEN" });
    const panel = await panelOf(pullId, staff.agent);
    expect(panel.homes[0]?.answer).toMatchObject({ status: "FAILED", kept: false });

    await controlSandbox(sandbox, "plan", { enrichment: true });
    expect(await ask(staff.agent, input)).toMatchObject({ ok: true, paid: true });
    expect(lookups()).toHaveLength(2);
    expect(await rows()).toEqual([expect.objectContaining({ status: "ANSWERED", error: null })]);
  });

  it("says so in words when the service cannot read the address, and keeps nothing to reuse", async () => {
    const vague = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a006", "acct_vague", (raw) => {
      for (const policy of raw.policies as Array<{ dwellings?: Array<{ address?: Record<string, unknown> }> }>)
        for (const dwelling of policy.dwellings ?? [])
          if (dwelling.address)
            Object.assign(dwelling.address, { city: null, full_address: "the farm past the creek" });
    });
    const [subject] = dwellingSubjectsOf((await loadPull(vague)) as Pull);
    expect(subject?.address).toBe("the farm past the creek");
    const input = { pullId: vague, kind: "PROPERTY_DATA", subjectKey: subject?.subjectKey, confirm: "yes" };
    const refused = await requestEnrichment(database.db, service, staff.manager, input);
    expect(refused).toMatchObject({ ok: false, code: "CONFLICT" });
    if (!refused.ok) expect(refused.message).toMatch(/could not read the address/);
    expect((await rows())[0]).toMatchObject({ status: "FAILED", error: "INVALID_ADDRESS" });
    expect((await panelOf(vague, staff.manager)).homes[0]?.answer).toMatchObject({ kept: false, canAskAgain: true });
  });

  it("calls once during an outage (no retry of a paid call) and may be asked again", async () => {
    await controlSandbox(sandbox, "faults", { errorRate: 1 });
    const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
    const failed = await ask(staff.agent, input);
    expect(failed).toMatchObject({ ok: false, code: "CONFLICT" });
    if (!failed.ok) expect(failed.message).toMatch(/failed to answer/);
    expect(lookups()).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: "FAILED", error: "INTERNAL_ERROR" });
    await controlSandbox(sandbox, "faults", { errorRate: 0 });
    expect(await ask(staff.agent, input)).toMatchObject({ ok: true, paid: true });
  });

  it("takes over a claim left ASKING by a caller that vanished, but waits for one under way", async () => {
    const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
    await ask(staff.agent, input);
    const [row] = await rows();
    // Under way (asked a moment ago): the second caller does not pay, and says so.
    await database.db
      .update(enrichmentAnswers)
      .set({ status: "ASKING", answer: null, askedAt: new Date(), askedByName: "Otto Other" })
      .where(eq(enrichmentAnswers.id, row?.id ?? 0));
    const busy = await ask(staff.manager, input, database.db, 50);
    expect(busy).toMatchObject({ ok: false, code: "CONFLICT" });
    if (!busy.ok) expect(busy.message).toMatch(/Otto Other is looking this up right now/);
    expect(lookups()).toHaveLength(1);
    expect((await panelOf(pullId, staff.agent)).homes[0]?.answer).toMatchObject({
      status: "ASKING",
      canAskAgain: false,
      note: "Being looked up right now. Reload the page in a moment.",
    });
    // Abandoned (claimed ten minutes ago, never settled): offered and asked again.
    await database.db
      .update(enrichmentAnswers)
      .set({ askedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(enrichmentAnswers.id, row?.id ?? 0));
    expect((await panelOf(pullId, staff.agent)).homes[0]?.answer).toMatchObject({
      status: "ASKING",
      canAskAgain: true,
    });
    expect(await ask(staff.manager, input)).toMatchObject({ ok: true, paid: true });
    expect(lookups()).toHaveLength(2);
    expect((await rows())[0]).toMatchObject({ status: "ANSWERED", askedByName: "Max Manager" });
  });
});

async function loadPull(id: string): Promise<Pull | null> {
  const [row] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, id));
  const parsed = parsePull(row?.raw);
  return parsed.ok ? parsed.pull : null;
}

describe("driver look-ups", () => {
  it("require a permissible purpose from the DPPA's list, in words", async () => {
    const driver = driverWithBirthDate();
    const none = await ask(staff.agent, { kind: "DRIVER_LICENSE", subjectKey: driver.subjectKey });
    expect(none).toMatchObject({ ok: false, code: "INVALID", field: "purpose" });
    if (!none.ok) expect(none.message).toMatch(/permissible purpose.*DPPA/);
    const unknown = await ask(staff.agent, {
      kind: "DRIVING_RECORD",
      subjectKey: driver.subjectKey,
      purpose: "MARKETING",
    });
    expect(unknown).toMatchObject({ ok: false, code: "INVALID", field: "purpose" });
    if (!unknown.ok) expect(unknown.message).toMatch(/not one of the permissible purposes/);
    // DPPA purposes that are not an insurance agency's to claim are refused on the server too.
    for (const purpose of ["LEGAL_PROCEEDING", "LICENSED_INVESTIGATOR", "COMMERCIAL_DRIVER_EMPLOYER", "RESEARCH"]) {
      const other = await ask(staff.agent, { kind: "DRIVING_RECORD", subjectKey: driver.subjectKey, purpose });
      expect(other, purpose).toMatchObject({ ok: false, code: "INVALID", field: "purpose" });
      if (!other.ok) expect(other.message).toMatch(/not a purpose an insurance agency/);
    }
    expect(AGENCY_DPPA_PURPOSES).toEqual([
      "INSURANCE_UNDERWRITING",
      "INSURANCE_CLAIMS",
      "VERIFY_SUBMITTED_INFORMATION",
      "WRITTEN_CONSENT",
    ]);
    expect(lookups()).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it("record who reused a kept driving record for another account, and why", async () => {
    const driver = driverWithBirthDate();
    const first = await ask(staff.agent, {
      kind: "DRIVING_RECORD",
      subjectKey: driver.subjectKey,
      purpose: "INSURANCE_UNDERWRITING",
    });
    expect(first).toMatchObject({ ok: true, paid: true });
    // Not shown on the other account's page before someone there asked for it with a purpose…
    const other = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a006", "acct_same_driver", () => {});
    const recordOf = async () =>
      (await panelOf(other, staff.manager)).drivers.find((d) => d.subjectKey === driver.subjectKey)?.record;
    expect(await recordOf()).toBeFalsy();
    const reused = await requestEnrichment(database.db, service, staff.manager, {
      pullId: other,
      kind: "DRIVING_RECORD",
      subjectKey: driver.subjectKey,
      purpose: "VERIFY_SUBMITTED_INFORMATION",
      confirm: "yes",
    });
    expect(reused).toMatchObject({ ok: true, paid: false });
    expect(lookups()).toHaveLength(1);
    // …and shown there once they did.
    expect(await recordOf()).toMatchObject({ kept: true });
    const trail = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "ENRICHMENT_REUSED"))
      .orderBy(asc(auditEvents.id));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorId: staff.manager.id,
      pullId: other,
      details: {
        kind: "DRIVING_RECORD",
        subject: driver.name,
        purpose: "VERIFY_SUBMITTED_INFORMATION",
        purposeSection: "(b)(3)",
        keptForPullId: pullId,
        otherAccount: true,
      },
    });
    expect(JSON.stringify(trail[0]?.details)).not.toContain(driver.dateOfBirth ?? "-");
    // Both answers shown are driver data from a motor vehicle record: on the DPPA redisclosure
    // log with each asker's purpose, naming the pulls by id and nothing of the driver.
    const log = await database.db.select().from(redisclosures).orderBy(asc(redisclosures.id));
    expect(log).toEqual([
      expect.objectContaining({
        pullIds: [pullId],
        pullCount: 1,
        dataKinds: ["driver data", "driving record"],
        channel: "look-up answer",
        recipient: `internal use: ${staff.agent.name}`,
        purpose: "INSURANCE_UNDERWRITING",
        actorId: staff.agent.id,
      }),
      expect.objectContaining({ pullIds: [other], purpose: "VERIFY_SUBMITTED_INFORMATION", actorId: staff.manager.id }),
    ]);
    expect(JSON.stringify(log)).not.toContain(driver.name);
  });

  it("send the purpose, the agent's name and role; audit the purpose and never the date of birth", async () => {
    const driver = driverWithBirthDate();
    const result = await ask(staff.agent, {
      kind: "DRIVER_LICENSE",
      subjectKey: driver.subjectKey,
      purpose: "INSURANCE_UNDERWRITING",
    });
    expect(result).toMatchObject({ ok: true, paid: true });
    const sent = new URL(lookups()[0] ?? "");
    expect(sent.pathname).toBe(`/api/v1.0.0/teams/${TEAM}/enrich/driverLicense`);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      first_name: driver.firstName,
      last_name: driver.lastName,
      date_of_birth_str: driver.dateOfBirth,
      purpose: "INSURANCE_UNDERWRITING",
      employee_name: "Ann Agent",
      employee_job_function: "Insurance agent",
    });
    expect(sent.searchParams.get("address")).toMatch(/, [A-Z]{2} \d{5}/);
    const [row] = await rows();
    expect(row).toMatchObject({ kind: "DRIVER_LICENSE", status: "ANSWERED", purpose: "INSURANCE_UNDERWRITING" });
    const [audit] = await audits();
    expect(audit).toMatchObject({
      actorId: staff.agent.id,
      pullId,
      details: {
        kind: "DRIVER_LICENSE",
        subject: driver.name,
        subjectKey: driver.subjectKey,
        purpose: "INSURANCE_UNDERWRITING",
        purposeSection: "(b)(6)",
        status: "ANSWERED",
      },
    });
    const [month, day, year] = (driver.dateOfBirth ?? "").split("/");
    const written = JSON.stringify(audit?.details);
    for (const form of [driver.dateOfBirth, `${year}-${month}-${day}`]) expect(written).not.toContain(form);

    // The page shows the licence with who asked and why.
    const panel = await panelOf(pullId, staff.agent);
    const shown = panel.drivers.find((d) => d.subjectKey === driver.subjectKey);
    expect(shown?.licence).toMatchObject({
      kept: true,
      askedByName: "Ann Agent",
      purpose: "Insurance rating or underwriting (by an insurer or its agent)",
    });
    expect(shown?.licence?.facts?.licence).toBeTruthy();
    expect(JSON.stringify(panel)).not.toContain(driver.dateOfBirth ?? "-");

    // A second agent asking with another purpose: the same question, kept, not paid again.
    const again = await ask(staff.manager, {
      kind: "DRIVER_LICENSE",
      subjectKey: driver.subjectKey,
      purpose: "VERIFY_SUBMITTED_INFORMATION",
    });
    expect(again).toMatchObject({ ok: true, paid: false });
    expect(lookups()).toHaveLength(1);
  });

  it("ask for a date of birth the carrier did not send, in words, and take one typed in", async () => {
    const driver = driverWithBirthDate();
    const noBirth = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a004", "acct_no_birth", (raw) => {
      for (const d of raw.drivers as Array<Record<string, unknown>>) {
        d.date_of_birth_str = null;
        d.drivers_license = null;
      }
    });
    const input = {
      pullId: noBirth,
      kind: "DRIVER_LICENSE",
      subjectKey: driver.subjectKey,
      purpose: "WRITTEN_CONSENT",
      confirm: "yes",
    };
    const missing = await requestEnrichment(database.db, service, staff.manager, input);
    expect(missing).toMatchObject({ ok: false, code: "INVALID", field: "dateOfBirth" });
    if (!missing.ok) expect(missing.message).toMatch(/date of birth \(MM\/DD\/YYYY\)/);
    const record = await requestEnrichment(database.db, service, staff.manager, { ...input, kind: "DRIVING_RECORD" });
    expect(record).toMatchObject({ ok: false, field: "dateOfBirth" });
    for (const bad of ["13/40/1984", "yesterday", "02/30/1990", "01/01/2099"]) {
      const refused = await requestEnrichment(database.db, service, staff.manager, { ...input, dateOfBirth: bad });
      expect(refused, bad).toMatchObject({ ok: false, code: "INVALID", field: "dateOfBirth" });
    }
    expect(lookups()).toEqual([]);
    const typed = await requestEnrichment(database.db, service, staff.manager, { ...input, dateOfBirth: "1984-03-09" });
    expect(typed).toMatchObject({ ok: true, paid: true });
    expect(new URL(lookups()[0] ?? "").searchParams.get("date_of_birth_str")).toBe("03/09/1984");
    const panel = await panelOf(noBirth, staff.manager);
    expect(panel.drivers.find((d) => d.subjectKey === driver.subjectKey)).toMatchObject({
      dateOfBirthOnFile: false,
      licence: { kept: true, purpose: "The person has given us their written consent" },
    });
  });

  it("keep 'no record' for a person the service does not know", async () => {
    const driver = driverWithBirthDate();
    const nobody = await storeVariant("6c1d2e3f-0000-4000-8000-00000000a005", "acct_nobody", (raw) => {
      for (const d of raw.drivers as Array<Record<string, unknown>>) d.last_name = "Nobody";
    });
    const input = {
      pullId: nobody,
      kind: "DRIVING_RECORD",
      subjectKey: driver.subjectKey,
      purpose: "INSURANCE_UNDERWRITING",
      confirm: "yes",
    };
    expect(await requestEnrichment(database.db, service, staff.admin, input)).toMatchObject({ ok: true, paid: true });
    expect(await requestEnrichment(database.db, service, staff.admin, input)).toMatchObject({ ok: true, paid: false });
    expect(lookups()).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: "NO_DATA", error: "NOT_FOUND" });
  });
});

describe("who may ask", () => {
  it("refuses an agent on another agent's pull, as if it did not exist; managers may", async () => {
    const input = { kind: "PROPERTY_DATA", subjectKey: home().subjectKey };
    expect(await ask(staff.otherAgent, input)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(lookups()).toEqual([]);
    expect(await rows()).toEqual([]);
    expect(await audits()).toEqual([]);
    const panel = await panelOf(pullId, staff.otherAgent);
    expect(panel.canRequest).toBe(false);
    expect(await ask(staff.manager, input)).toMatchObject({ ok: true });
  });

  it("refuses bad input in words: an unknown look-up, a subject not on the pull, a pull that is not one", async () => {
    expect(await ask(staff.agent, { kind: "CREDIT_SCORE", subjectKey: "x" })).toMatchObject({
      ok: false,
      code: "INVALID",
      field: "kind",
    });
    const gone = await ask(staff.agent, { kind: "PROPERTY_DATA", subjectKey: "dwelling:not-here" });
    expect(gone).toMatchObject({ ok: false, code: "STALE" });
    expect(
      await requestEnrichment(database.db, service, staff.agent, {
        pullId: "not-a-uuid",
        kind: "PROPERTY_DATA",
        subjectKey: "x",
      }),
    ).toMatchObject({ ok: false, code: "INVALID", field: "pullId" });
    expect(lookups()).toEqual([]);
  });
});
