import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { exportListCsv, type CsvColumn } from "./list-export";

// A list's CSV on a real database: each header above its own cells, a hostile cell defused, and
// the export on the audit trail with its filters, size and the pulls it names.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

type Row = { pullId: string; name: string; premiumCents: number | null };
const columns: Array<CsvColumn<Row>> = [
  ["name", (r) => r.name],
  ["premium", (r) => r.premiumCents],
];

describe("exportListCsv", () => {
  it("writes each column's header above its cells, and records who took which slice", async () => {
    await database.db.execute(sql`truncate audit_events`);
    const staff = await createStaff(database.db);
    const body = await exportListCsv(database.db, staff.manager, {
      name: "things",
      filters: { gap: "NO_FLOOD", page: 3 },
      columns,
      rows: [
        { pullId: "00000000-0000-4000-8000-000000000001", name: "Ada, Lovelace", premiumCents: 100 },
        { pullId: "00000000-0000-4000-8000-000000000002", name: "=HYPERLINK()", premiumCents: null },
      ],
    });
    expect(body).toBe('name,premium\r\n"Ada, Lovelace",100\r\n\'=HYPERLINK(),\r\n');
    const trail = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CSV_EXPORTED"));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorId: staff.manager.id,
      details: { export: "things", filters: { gap: "NO_FLOOD" }, rows: 2 },
      // Each consumer in the file, for the incident-scope report.
      pullIds: ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"],
    });
    // The page a list was on is not a filter of the file.
    expect(trail[0]?.details).not.toHaveProperty("filters.page");
  });
});
