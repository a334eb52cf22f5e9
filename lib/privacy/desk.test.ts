import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, consumerIndex, privacyRequests, users } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { loadPrivacyPage, loadPrivacyRequestPage } from "@/lib/loaders/privacy";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { backfillConsumerIndex } from "./consumer-index";
import { exportPrivacyRequest, type ConsumerExport } from "./export";
import { findConsumer } from "./find-consumer";
import { addDays, daysLeft, dueDateOf, eraseConsumer, markServiceTold, openPrivacyRequest } from "./requests";

// The consumer request desk as an admin uses it: the search (audited without what was typed),
// a request and its 45-day clock, the exports (JSON complete, PDF readable, each audited as
// leaving Coverdesk to the consumer), the erasure, and the service's copy afterwards.

const fixture = (
  JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as { pull: { pull_id: string } }
).pull;
const EMAIL = "clark.kent@theplanet.com";
const PULL = fixture.pull_id;
let database: TestDatabase;
let admin = { id: "", name: "Ada Admin", role: "ADMIN" as const };

beforeAll(async () => {
  database = await createTestDatabase();
  const [row] = await database.db
    .insert(users)
    .values({ email: "ada@agency.test", name: "Ada Admin", role: "ADMIN", passwordHash: "x" })
    .returning({ id: users.id });
  admin = { ...admin, id: row?.id ?? "" };
  expect((await storePull(database.db, fixture)).outcome).toBe("created");
});
afterAll(async () => {
  await database?.close();
});

describe("the 45-day clock", () => {
  it("is due 45 calendar days after the day received, across months and years", () => {
    expect(dueDateOf("2026-01-01")).toBe("2026-02-15");
    expect(dueDateOf("2026-12-20")).toBe("2027-02-03");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("counts the days left, zero on the due day, negative once overdue", () => {
    expect(daysLeft("2026-02-15", "2026-01-01")).toBe(45);
    expect(daysLeft("2026-02-15", "2026-02-15")).toBe(0);
    expect(daysLeft("2026-02-15", "2026-02-18")).toBe(-3);
  });
});

describe("the index of pulls stored before it", () => {
  it("is written by the backfill, so the desk finds them too, and only once", async () => {
    await database.db.delete(consumerIndex);
    expect(await findConsumer(database.db, { email: EMAIL })).toEqual([]);
    expect(await backfillConsumerIndex(database.db)).toBe(1);
    expect((await findConsumer(database.db, { email: EMAIL })).map((p) => p.pullId)).toEqual([PULL]);
    expect(await backfillConsumerIndex(database.db)).toBe(0);
  });
});

describe("the desk", () => {
  it("finds the consumer by date of birth and records the search without its values", async () => {
    const page = await loadPrivacyPage(database.db, admin, { dob: "1987-05-03" });
    expect(page.searchError).toBeNull();
    expect(page.results?.map((p) => p.pullId)).toEqual([PULL]);
    const [entry] = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CONSUMER_SEARCHED"));
    expect(entry?.details).toEqual({ fields: ["birthDate"], found: 1 });
    expect(JSON.stringify(entry)).not.toContain("1987");
  });

  it("refuses a malformed search in words, and searches nothing", async () => {
    const page = await loadPrivacyPage(database.db, admin, { email: "clark at planet" });
    expect(page.searchError).toBe("Enter an email address.");
    expect(page.results).toBeNull();
  });

  it("refuses a request received in the future, a reference that is an email, and one without pulls", async () => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(
      await openPrivacyRequest(database.db, admin, { kind: "ACCESS", receivedOn: "2026-03-11", pullIds: [PULL] }, now),
    ).toMatchObject({ ok: false, field: "receivedOn" });
    expect(
      await openPrivacyRequest(
        database.db,
        admin,
        { kind: "ACCESS", receivedOn: "2026-03-01", reference: EMAIL, pullIds: [PULL] },
        now,
      ),
    ).toMatchObject({ ok: false, field: "reference" });
    expect(
      await openPrivacyRequest(database.db, admin, { kind: "ACCESS", receivedOn: "2026-03-01", pullIds: [] }, now),
    ).toMatchObject({ ok: false, field: "pullIds" });
    expect(await database.db.$count(privacyRequests)).toBe(0);
  });

  it("shows an open request's clock, overdue once past its due day", async () => {
    const opened = await openPrivacyRequest(database.db, admin, {
      kind: "ACCESS",
      receivedOn: "2020-01-02",
      reference: "T-1001",
      pullIds: [PULL],
    });
    expect(opened.ok).toBe(true);
    const page = await loadPrivacyPage(database.db, admin, {}, new Date("2020-02-20T09:00:00Z"));
    expect(page.requests).toHaveLength(1);
    expect(page.requests[0]).toMatchObject({ dueOn: "2020-02-16", daysLeft: -4, status: "OPEN" });
  });

  it("exports everything held as JSON, and a readable PDF; each export is audited and answers the access request", async () => {
    const [request] = await database.db.select().from(privacyRequests);
    const json = await exportPrivacyRequest(database.db, admin, request?.id ?? "", "json");
    expect(json.ok).toBe(true);
    if (!json.ok) return;
    const data = JSON.parse(new TextDecoder().decode(json.file.bytes)) as ConsumerExport;
    expect(data.pulls).toHaveLength(1);
    expect(JSON.stringify(data.pulls[0]?.payload)).toContain(EMAIL);
    expect(data.pulls[0]?.agency.stage).toBe("WORKING");

    const pdf = await exportPrivacyRequest(database.db, admin, request?.id ?? "", "pdf");
    expect(pdf.ok).toBe(true);
    if (!pdf.ok) return;
    expect(pdf.file.contentType).toBe("application/pdf");
    expect((await PDFDocument.load(pdf.file.bytes)).getPageCount()).toBeGreaterThanOrEqual(1);

    const exports = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "CONSUMER_DATA_EXPORTED"));
    expect(exports.map((e) => e.details)).toEqual([
      expect.objectContaining({ format: "json", recipient: "the consumer", pulls: 1 }),
      expect.objectContaining({ format: "pdf", recipient: "the consumer", pulls: 1 }),
    ]);
    const [answered] = await database.db
      .select()
      .from(privacyRequests)
      .where(eq(privacyRequests.id, request?.id ?? ""));
    expect(answered?.status).toBe("DONE");
  });

  it("erases through an erasure request, then lists the service's steps until someone records them done", async () => {
    const opened = await openPrivacyRequest(database.db, admin, {
      kind: "ERASURE",
      receivedOn: "2020-01-05",
      pullIds: [PULL],
    });
    if (!opened.ok) throw new Error(opened.message);
    const erased = await eraseConsumer(database.db, admin, { pullIds: [], requestId: opened.request.id });
    expect(erased.ok).toBe(true);
    expect(await eraseConsumer(database.db, admin, { pullIds: [], requestId: opened.request.id })).toMatchObject({
      ok: false,
    });

    const page = await loadPrivacyRequestPage(database.db, opened.request.id);
    expect(page?.pulls).toEqual([]);
    expect(page?.request.erasedCounts).toMatchObject({ pulls: 1 });
    expect(page?.serviceSteps?.join(" ")).toContain(PULL);

    expect((await markServiceTold(database.db, admin, opened.request.id)).ok).toBe(true);
    const after = await loadPrivacyRequestPage(database.db, opened.request.id);
    expect(after?.serviceSteps).toBeNull();
    expect(after?.request.servicePullIds).toEqual([]);
    expect(JSON.stringify(after?.request)).not.toContain(PULL);

    // The access request answered earlier has nothing left to export.
    const [access] = await database.db.select().from(privacyRequests).where(eq(privacyRequests.kind, "ACCESS"));
    const empty = await exportPrivacyRequest(database.db, admin, access?.id ?? "", "json");
    expect(empty.ok).toBe(false);
  });
});
