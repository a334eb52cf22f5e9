import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisclosures } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { redisclosuresCsv } from "@/lib/csv/audit-exports";
import { listRedisclosures, recordRedisclosure } from "./redisclosure";

// The DPPA redisclosure log on a real database: what a bulk export and a single hand-off leave
// there, that nothing edits or removes a row, and that bad input writes nothing.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe("the redisclosure log", () => {
  const a = randomUUID();
  const b = randomUUID();

  it("records each disclosure in the caller's transaction: pulls by id and count, recipient, purpose, who", async () => {
    await database.db.transaction(async (tx) => {
      await recordRedisclosure(tx, {
        pullIds: [a, b, a],
        recipient: "Acme Insurance Co.",
        purpose: "INSURANCE_UNDERWRITING",
        dataKinds: ["driver data"],
        channel: "consumer data export",
        actor: staff.manager,
      });
    });
    // A disclosure whose transaction fails leaves no row: the record exists exactly when the disclosure does.
    await expect(
      database.db.transaction(async (tx) => {
        await recordRedisclosure(tx, { pullIds: [b], recipient: "x", purpose: "y", actor: staff.agent });
        throw new Error("the export failed");
      }),
    ).rejects.toThrow("the export failed");
    const rows = await listRedisclosures(database.db);
    expect(rows).toEqual([
      expect.objectContaining({
        pullIds: [a, b],
        pullCount: 2,
        dataKinds: ["driver data"],
        channel: "consumer data export",
        recipient: "Acme Insurance Co.",
        purpose: "INSURANCE_UNDERWRITING",
        actorId: staff.manager.id,
        actorName: staff.manager.name,
      }),
    ]);
    const csv = redisclosuresCsv(rows).split("\r\n");
    expect(csv[0]).toBe("at,pull ids,pulls,data,channel,recipient,purpose,by");
    expect(csv[1]).toContain(
      `,${a} ${b},2,driver data,consumer data export,Acme Insurance Co.,INSURANCE_UNDERWRITING,`,
    );
  });

  it("refuses to edit or delete a row, for anyone (the log is kept five years)", async () => {
    const refusal = (statement: ReturnType<typeof sql>) =>
      database.db.execute(statement).then(
        () => "allowed",
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
    expect(await refusal(sql`update redisclosures set recipient = 'nobody'`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from redisclosures`)).toMatch(/append-only/);
    expect(await database.db.select().from(redisclosures)).toHaveLength(1);
  });

  it("writes nothing for bad input: no pulls, a pull id that is not one, no recipient", async () => {
    const attempts = [
      { pullIds: [], recipient: "internal use", purpose: "INSURANCE_CLAIMS" },
      { pullIds: ["Jane Doe"], recipient: "internal use", purpose: "INSURANCE_CLAIMS" },
      { pullIds: [a], recipient: " ", purpose: "INSURANCE_CLAIMS" },
      { pullIds: [a], recipient: "internal use", purpose: "" },
    ];
    for (const attempt of attempts)
      await expect(
        recordRedisclosure(database.db, { ...attempt, actor: staff.agent }),
        JSON.stringify(attempt),
      ).rejects.toThrow();
    expect(await database.db.select().from(redisclosures)).toHaveLength(1);
  });
});
