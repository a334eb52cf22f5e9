import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/connect";
import {
  enrichmentAnswers,
  monitoringEvents,
  pulls,
  userFactors,
  users,
  webhookEndpoints,
  webhookEvents,
} from "@/db/schema";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import { normalize, questionKey } from "@/lib/enrichment/question";
import { rekeyEnrichmentQuestions } from "@/lib/enrichment/store";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import { storePull } from "@/lib/ingest/store-pull";
import { loadPullPage } from "@/lib/loaders/pull-page";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import {
  currentKeyRing,
  KeyRingError,
  openValue,
  sealValue,
  sealedKeyId,
  type KeyRing,
  type RingKey,
} from "./key-ring";
import {
  countSealedValues,
  listSealedColumns,
  loadKeyRetirements,
  rotateKeys,
  sealClearValues,
} from "./sealed-columns";
import { env, EnvError } from "@/lib/env";
import { openSecret } from "./secret-box";
import { setRetiredKeyIds } from "./key-ring";
import { openSensitive, sealSensitive } from "./sensitive-fields";

// Issue 34: drivers' licence numbers and dates of birth are never stored in clear, in any table,
// nor under an encoding. The published example pull is stored through the real ingest path, with
// a webhook body, a monitoring change, an enrichment answer and an audit entry that carry them;
// then every table of the database is read as text.

const personal = JSON.parse(
  readFileSync(path.join(process.cwd(), "lib/service/fixtures/real/pulls/personal.json"), "utf8"),
) as { success: boolean; pull: Record<string, unknown> & { pull_id: string } };
const PULL_ID = personal.pull.pull_id;
const LICENCE = "SUP1234017";
const SPELLINGS = [LICENCE, "05/03/1987", "1987-05-03", "5/3/1987", "19870503"];

/** Each value as is, in hex and in base64: none of them may be found in a dump. */
function forbiddenForms(): string[] {
  return SPELLINGS.flatMap((value) => {
    const bytes = Buffer.from(value, "utf8");
    return [
      value,
      bytes.toString("hex"),
      bytes.toString("base64").replace(/=+$/, ""),
      bytes.toString("base64url"),
      // An escaped slash, as JSON may write it.
      value.replace(/\//g, "\\/"),
    ];
  });
}

/** Every row of every table of the public schema, as text. */
async function dumpText(db: Db): Promise<string> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await queryRows<{ row: string }>(db, sql.raw(`select t::text as row from "${name}" t`));
    parts.push(`${name}: ${rows.map((r) => r.row).join("\n")}`);
  }
  return parts.join("\n");
}

function expectNoClearValues(dump: string) {
  const lower = dump.toLowerCase();
  for (const form of forbiddenForms()) expect(lower, `"${form}" is stored`).not.toContain(form.toLowerCase());
}

const NO_SERVICE = {
  baseUrl: "http://127.0.0.1:9/api/v1.0.0",
  teamId: "team-1",
  clientId: "x",
  clientSecret: "y",
  timeoutMs: 500,
};

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("encryption at rest", () => {
  it("stores the example pull, its webhook, a change, a look-up and the trail without the licence or the birth date in clear", async () => {
    const db = database.db;
    expect(await storePull(db, personal)).toMatchObject({ outcome: "created" });
    // A second version: the first goes to pull_versions.
    const refreshed = { ...personal, pull: { ...personal.pull, first_name: "Clark J." } };
    expect(await storePull(db, refreshed, { fetchStartedAt: new Date(Date.now() + 1000) })).toMatchObject({
      outcome: "updated",
    });
    // The inbox keeps the body as received: a DATA_UPDATED that carries the driver.
    const body = JSON.stringify({
      event_type: "DATA_UPDATED",
      pull_id: PULL_ID,
      status: "SUCCESS",
      data: { updates: ["drivers"], drivers: [{ date_of_birth_str: "05/03/1987", drivers_license: LICENCE }] },
    });
    expect((await receiveWebhook(db, body, { webhookSecret: null, signatureHeader: null })).status).toBeLessThan(300);
    const [inbox] = await db.select({ id: webhookEvents.id }).from(webhookEvents);
    // A monitoring change: the driver's birth date corrected.
    await db.insert(monitoringEvents).values({
      inboxEventId: inbox?.id ?? 1,
      pullId: PULL_ID,
      type: "UPDATE",
      changes: [
        {
          schema: "DRIVER",
          type: "UPDATE",
          before: { date_of_birth_str: "1987-05-03" },
          after: { date_of_birth_str: "05/03/1987" },
        },
      ],
    });
    // A licence look-up: its question and its answer.
    await db.insert(enrichmentAnswers).values({
      kind: "DRIVER_LICENSE",
      questionKey: "q-1",
      accountKey: PULL_ID,
      pullId: PULL_ID,
      subjectKey: "driver:1",
      question: { first_name: "Clark", last_name: "Kent", address: "1 Main St", date_of_birth_str: "05/03/1987" },
      status: "ANSWERED",
      answer: {
        driver_license_id: "l-1",
        driver_license: { first_name: "Clark", date_of_birth_str: "05/03/1987", drivers_license: LICENCE },
      },
    });
    await recordAudit(db, null, "DOCUMENT_DOWNLOADED", { pullId: PULL_ID, details: { dateOfBirth: "1987-05-03" } });

    expectNoClearValues(await dumpText(db));
    expect((await countSealedValues(db)).clear).toBe(0);

    // What the app reads opens them.
    const [answer] = await db.select().from(enrichmentAnswers);
    expect(answer?.answer).toMatchObject({ driver_license: { drivers_license: LICENCE } });
    const [inboxRow] = await db.select({ payload: webhookEvents.payload }).from(webhookEvents);
    expect(JSON.stringify(inboxRow?.payload)).toContain("05/03/1987");
  });

  it("still shows the licence and the birth date to a user who may see the pull", async () => {
    const staff = await createStaff(database.db);
    const page = await loadPullPage(database.db, NO_SERVICE, { ...staff.admin, sessionId: "s" }, PULL_ID);
    const driver = page?.detail.pull.drivers.find((d) => d.drivers_license !== null);
    expect(driver).toMatchObject({ drivers_license: LICENCE, date_of_birth_str: "05/03/1987" });
  });

  it("seals the clear values an older version stored, once, whatever the column", async () => {
    const db = database.db;
    // As an older version wrote them: straight into the column, past the codec.
    await db.execute(
      sql`update ${pulls} set raw = jsonb_set(raw, '{drivers,0,drivers_license}', '"SUP1234017"') where pull_id = ${PULL_ID}`,
    );
    await db.execute(
      sql`update ${enrichmentAnswers} set answer = '{"driver_license":{"date_of_birth_str":"05/03/1987"}}'::jsonb`,
    );
    expect(await dumpText(db)).toContain(LICENCE);
    expect((await countSealedValues(db)).clear).toBe(2);

    expect(await sealClearValues(db)).toBe(2);
    expectNoClearValues(await dumpText(db));
    // Each column is swept once: a later start reads nothing again.
    expect(await sealClearValues(db)).toBe(0);
    const [row] = await db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, PULL_ID));
    expect(JSON.stringify(row?.raw)).toContain(LICENCE);
  });

  it("keys an enrichment question by a blind index, not a plain hash a list of birth dates could reverse", async () => {
    const db = database.db;
    const [before] = await db.select().from(enrichmentAnswers);
    const question = before?.question as Record<string, string>;
    const plain = createHash("sha256")
      .update(
        JSON.stringify([
          "DRIVER_LICENSE",
          Object.keys(question)
            .sort()
            .map((k) => [k, normalize(question[k] ?? "")]),
        ]),
      )
      .digest("hex");
    await db.update(enrichmentAnswers).set({ questionKey: plain });
    expect(await rekeyEnrichmentQuestions(db)).toBe(1);
    const [after] = await db.select().from(enrichmentAnswers);
    expect(after?.questionKey).toBe(questionKey("DRIVER_LICENSE", question));
    expect(after?.questionKey).not.toBe(plain);
    expect(await rekeyEnrichmentQuestions(db)).toBe(0);
  });

  it("lists every jsonb column that may carry personal values as sealed", () => {
    expect(listSealedColumns().map((c) => c.key)).toEqual(
      expect.arrayContaining([
        "pulls.raw",
        "pulls.payload_problems",
        "pull_versions.raw",
        "webhook_events.payload",
        "monitoring_events.changes",
        "enrichment_answers.question",
        "enrichment_answers.answer",
        "audit_events.details",
      ]),
    );
  });
});

describe("rotation", () => {
  const k1 = { id: "k1", key: Buffer.alloc(32, 1) };
  const k2 = { id: "k2", key: Buffer.alloc(32, 2) };
  const ring = (...keys: RingKey[]): KeyRing => ({ keys, retired: new Set() });

  it("opens under the key it names, and refuses a key the ring lacks or retired", () => {
    const sealed = sealValue("05/03/1987", ring(k1));
    expect(sealed).toMatch(/^sealed:v1:k1:/);
    expect(sealed).not.toContain("1987");
    expect(openValue(sealed, ring(k2, k1))).toBe("05/03/1987");
    expect(() => openValue(sealed, ring(k2))).toThrow(KeyRingError);
    expect(() => openValue(sealed, { keys: [k2, k1], retired: new Set(["k1"]) })).toThrow(/retired/);
    expect(() => openValue(sealed.slice(0, -4) + "AAAA", ring(k1))).toThrow(KeyRingError);
    // Bound to its context.
    expect(() => openValue(sealValue("x", ring(k1), "user-1"), ring(k1), "user-2")).toThrow(KeyRingError);
  });

  it("moves every value under the new key, then retires the old one", async () => {
    const db = database.db;
    const before = await db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, PULL_ID));
    // Values sealed under k1 (as if k1 had been the ring's key all along).
    const stored = await queryRows<{ raw: string }>(
      db,
      sql`select raw::text as raw from pulls where pull_id = ${PULL_ID}`,
    );
    const underK1 = openSensitive(JSON.parse(stored[0]?.raw ?? "null"), currentKeyRing());
    await db.execute(
      sql`update pulls set raw = ${JSON.stringify(sealSensitive(underK1, ring(k1)))}::jsonb where pull_id = ${PULL_ID}`,
    );
    // An outgoing webhook's signing secret, and the one before its rotation, sealed under k1 too.
    const endpointId = "5b1e7c2a-3d4f-4a6b-9c8d-7e6f5a4b3c2d";
    await db.insert(webhookEndpoints).values({
      id: endpointId,
      url: "https://hooks.example.com/coverdesk",
      events: ["pull.created"],
      secretSealed: sealValue("whsec_current", ring(k1), `webhook-endpoint:${endpointId}`),
      previousSecretSealed: sealValue("whsec_before", ring(k1), `webhook-endpoint:${endpointId}`),
      createdByName: "API key: Zapier",
    });
    const census = await countSealedValues(db);
    expect(census.columns["pulls.raw"]?.byKey.k1).toBeGreaterThan(0);
    expect(census.columns["webhook_endpoints.previous_secret_sealed"]?.byKey.k1).toBe(1);

    const lines: string[] = [];
    // The ring k2,k1 plus this database's development key, which the other rows are under.
    const rotation = await rotateKeys(db, ring(k2, k1, ...currentKeyRing().keys), (line) => lines.push(line));
    expect(rotation.retired).toEqual(expect.arrayContaining(["k1"]));
    expect(lines.some((line) => line.startsWith("pulls.raw:"))).toBe(true);
    const after = await countSealedValues(db);
    expect(Object.keys(after.byKey)).toEqual(["k2"]);
    expect(after.clear).toBe(0);
    expectNoClearValues(await dumpText(db));

    // A value under k1 is refused from now on, even with k1 still in the ring.
    const retired = await queryRows<{ id: string }>(db, sql`select key_id as id from encryption_key_retirements`);
    expect(retired.map((r) => r.id)).toContain("k1");
    const old = sealValue("05/03/1987", ring(k1));
    expect(() => openValue(old, { keys: [k2, k1], retired: new Set(retired.map((r) => r.id)) })).toThrow(/retired/);
    // The rotated payload opens under k2 and reads as before.
    const rotated = await queryRows<{ raw: string }>(
      db,
      sql`select raw::text as raw from pulls where pull_id = ${PULL_ID}`,
    );
    const doc = JSON.parse(rotated[0]?.raw ?? "null") as { drivers: { drivers_license: string }[] };
    const licence = doc.drivers.map((d) => d.drivers_license).find(Boolean) ?? "";
    expect(sealedKeyId(licence)).toBe("k2");
    expect(openSensitive(doc, ring(k2))).toEqual(before[0]?.raw);
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(sealedKeyId(endpoint?.secretSealed ?? "")).toBe("k2");
    expect(openValue(endpoint?.secretSealed ?? "", ring(k2), `webhook-endpoint:${endpointId}`)).toBe("whsec_current");
    expect(openValue(endpoint?.previousSecretSealed ?? "", ring(k2), `webhook-endpoint:${endpointId}`)).toBe(
      "whsec_before",
    );
  });

  it("seals a second factor's seed of the older k1. form on the ring, and it still opens", async () => {
    const db = database.db;
    const [user] = await db.select({ id: users.id }).from(users).limit(1);
    const userId = user?.id ?? "";
    // As lib/security/secret-box.ts sealed seeds before the ring.
    const key = Buffer.from(hkdfSync("sha256", env().auth.secret, "", "coverdesk:secret-box:v1", 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(userId, "utf8"));
    const body = Buffer.concat([cipher.update("JBSWY3DPEHPK3PXP", "utf8"), cipher.final()]);
    const legacy = ["k1", iv, body, cipher.getAuthTag()]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
    await db.insert(userFactors).values({ userId, secretSealed: legacy });
    expect(openSecret(legacy, userId)).toBe("JBSWY3DPEHPK3PXP");

    const k3 = { id: "k3", key: Buffer.alloc(32, 3) };
    await rotateKeys(db, ring(k3, k2));
    const [factor] = await db.select().from(userFactors).where(eq(userFactors.userId, userId));
    expect(factor?.secretSealed).toMatch(/^sealed:v1:k3:/);
    expect(openSecret(factor?.secretSealed ?? "", userId, undefined, ring(k3))).toBe("JBSWY3DPEHPK3PXP");
    expect(openSecret(factor?.secretSealed ?? "", crypto.randomUUID(), undefined, ring(k3))).toBeNull();
    expect(Object.keys((await countSealedValues(db)).byKey)).toEqual(["k3"]);
  });

  it("stops the start when the ring's first key was retired, naming the variable", async () => {
    const db = database.db;
    const [first] = currentKeyRing().keys;
    // The rotation above retired every key but k2, this process's key too: not retired, it starts.
    await db.execute(sql`delete from encryption_key_retirements where key_id = ${first?.id ?? ""}`);
    await expect(loadKeyRetirements(db)).resolves.toBeUndefined();
    await db.execute(sql`insert into encryption_key_retirements (key_id) values (${first?.id ?? ""})`);
    try {
      await expect(loadKeyRetirements(db)).rejects.toThrow(EnvError);
      await expect(loadKeyRetirements(db)).rejects.toThrow(/COVERDESK_ENCRYPTION_KEYS/);
      // And a value sealed under it is refused meanwhile.
      expect(() => sealValue("05/03/1987")).toThrow(/retired/);
    } finally {
      await db.execute(sql`delete from encryption_key_retirements where key_id = ${first?.id ?? ""}`);
      setRetiredKeyIds([]);
    }
  });
});
