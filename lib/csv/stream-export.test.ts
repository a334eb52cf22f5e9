import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEvents, pulls } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { viewScope } from "@/lib/auth/permissions";
import { crossSellColumns, crossSellExportRequest, streamCrossSellCsv } from "@/lib/cross-sell/csv";
import { listCrossSell } from "@/lib/cross-sell/queries";
import { storePull } from "@/lib/ingest/store-pull";
import { pullListColumns, pullListExportRequest, streamPullListCsv } from "@/lib/pulls/list-csv";
import { listPullRows } from "@/lib/pulls/queries";
import { streamXDatesCsv, xdateColumns, xdateExportRequest } from "@/lib/xdates/xdates-csv";
import { listXDates, windowOf } from "@/lib/xdates/queries";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { householdPayload } from "@/test/household-payload";
import { createStaff } from "@/test/workflow-fixture";
import { readInBatches } from "./cursor";
import { exportListCsv, MAX_EXPORT_ROWS, type CsvColumn } from "./list-export";
import { filtersRefused, streamListCsv } from "./stream-export";

// The list CSVs as streams on a real database: the same bytes as the in-memory builder
// (exportListCsv, kept as the reference) for the same rows, the header once, the rows in order
// batch after batch, one audit line when the file ends (or a cut-short one when the reader
// leaves), and bad filters refused before a file starts.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate audit_events, household_gaps, policy_xdates, policies, pulls, users cascade`);
  staff = await createStaff(database.db);
});

const BOM = "\uFEFF";
const decoder = new TextDecoder();

/** Every chunk the stream gives, as the browser receives them. */
async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

const bytesOf = (chunks: Uint8Array[]) => Buffer.concat(chunks.map((c) => Buffer.from(c)));

/** The in-memory builder's file for these rows, as csvResponse sends it (its audit line is left out below). */
async function referenceFile<Row extends { pullId: string }>(
  columns: ReadonlyArray<CsvColumn<Row>>,
  rows: Row[],
): Promise<Buffer> {
  const body = await exportListCsv(database.db, staff.admin, { name: "reference", filters: {}, columns, rows });
  return Buffer.from(`${BOM}${body}`, "utf8");
}

const exportsOnTrail = () =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "CSV_EXPORTED"), sql`${auditEvents.details}->>'export' <> 'reference'`))
    .orderBy(auditEvents.id);

type Generated = { pullId: string; n: number; name: string };
const generatedColumns: Array<CsvColumn<Generated>> = [
  ["n", (r) => r.n],
  ["name", (r) => r.name],
  ["pull id", (r) => r.pullId],
];
/** 2,500 rows in a known order, every fifth name one a spreadsheet would run, some with commas and quotes. */
const generated = sql`select md5(g::text)::uuid::text as "pullId", g as n,
    case when g % 5 = 0 then '=HYPERLINK("x' || g || '")' when g % 7 = 0 then 'Doe, "J' || g || '"' else 'Name ' || g end as name
  from generate_series(1, 2500) as g order by g`;

describe("a streamed list CSV", () => {
  it("sends the header once, then every row in order in batches, byte for byte the in-memory file", async () => {
    const all = await queryRows<Generated>(database.db, generated);
    const stream = streamListCsv<Generated>(database.db, staff.manager, {
      name: "generated",
      filters: { gap: "NO_FLOOD", page: 2 },
      columns: generatedColumns,
      read: (each) => readInBatches(database.db, generated, (rows) => each(rows as Generated[]), 1_000),
    });
    const chunks = await chunksOf(stream);
    // The header, then three batches (1,000 + 1,000 + 500): never the whole file in one piece.
    expect(chunks).toHaveLength(4);
    expect(bytesOf(chunks).equals(await referenceFile(generatedColumns, all))).toBe(true);
    const text = decoder.decode(bytesOf(chunks));
    expect(text.match(/^n,name,pull id\r\n/gm)).toHaveLength(1);
    const numbers = text
      .split("\r\n")
      .slice(1, -1)
      .map((line) => Number(line.split(",")[0]));
    expect(numbers).toEqual(all.map((r) => r.n));
    expect(text).toContain(`'=HYPERLINK(""x5"")"`);

    const trail = await exportsOnTrail();
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorId: staff.manager.id,
      details: { export: "generated", filters: { gap: "NO_FLOOD" }, rows: 2500 },
    });
    expect(trail[0]?.details).not.toHaveProperty("complete");
    expect(trail[0]?.details).not.toHaveProperty("filters.page");
    expect(new Set(trail[0]?.pullIds)).toEqual(new Set(all.map((r) => r.pullId)));
  });

  it("records a download cut short with the rows that left, and lets the cursor go", async () => {
    const stream = streamListCsv<Generated>(database.db, staff.agent, {
      name: "generated",
      filters: {},
      columns: generatedColumns,
      read: (each) => readInBatches(database.db, generated, (rows) => each(rows as Generated[]), 1_000),
    });
    const reader = stream.getReader();
    await reader.read(); // the header
    await reader.read(); // the first batch
    await reader.cancel();
    await vi.waitFor(async () => expect(await exportsOnTrail()).toHaveLength(1));
    const [entry] = await exportsOnTrail();
    expect(entry?.details).toMatchObject({ export: "generated", complete: false });
    // The first batch was taken and the second handed over when the reader left: no more.
    expect((entry?.details as { rows: number }).rows).toBeLessThanOrEqual(2_000);
    expect(entry?.pullIds?.length).toBe((entry?.details as { rows: number }).rows);
    // The cursor's transaction ended: the database still answers on the pool.
    expect(await queryRows(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it("refuses filters that do not parse with 400 and no file, and accepts the list's own", async () => {
    expect(pullListExportRequest({ stage: "NOPE", sort: "premium" })).toEqual({
      status: "refused",
      ignored: ["stage"],
    });
    expect(xdateExportRequest({ range: "45" })).toEqual({ status: "refused", ignored: ["range"] });
    expect(crossSellExportRequest({ gap: "NO_SUCH_GAP", agent: "not-a-uuid" })).toMatchObject({
      status: "refused",
      ignored: ["gap", "agent"],
    });
    expect(pullListExportRequest({ stage: "WORKING", utm_source: "mail" })).toEqual({
      status: "ready",
      query: { stage: "WORKING" },
    });
    const refused = filtersRefused(["stage"]);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/json/);
    expect(await refused.json()).toMatchObject({ error: "INVALID_FILTERS", ignored: ["stage"] });
  });
});

describe("the lists' streamed CSVs", () => {
  /** A small book: hostile and ordinary names, households of one to three lines. */
  async function book() {
    const names = ["=cmd|' /C calc'!A0", "Ada, Lovelace", 'Say "hi"', "+1 555", "Plain"];
    for (let i = 0; i < 15; i += 1)
      await storePull(
        database.db,
        householdPayload({
          first: names[i % names.length],
          createdAt: `2026-0${1 + (i % 9)}-1${i % 10}T10:00:00.${String(123 + i).padStart(3, "0")}Z`,
          policies: [
            { type: "AUTO", premium: 10_000 + i * 101 },
            ...(i % 2 ? [{ type: "HOMEOWNERS", premium: null }] : []),
            ...(i % 3 ? [{ type: "UMBRELLA", premium: 5_000 }] : []),
          ],
        }),
      );
    await database.db
      .update(pulls)
      .set({ assigneeId: staff.agent.id })
      .where(sql`${pulls.firstName} = 'Plain'`);
  }

  it("writes the pull list as the page's query lists it, for a manager and an agent", async () => {
    await book();
    for (const [user, query] of [
      [staff.manager, { sort: "premium" as const }],
      [staff.agent, { sort: "name" as const, dir: "desc" as const }],
    ] as const) {
      const rows = await listPullRows(database.db, viewScope(user), { ...query, page: 1 }, MAX_EXPORT_ROWS);
      expect(rows.length).toBeGreaterThan(0);
      const streamed = bytesOf(await chunksOf(streamPullListCsv(database.db, database.db, user, query)));
      expect(decoder.decode(streamed)).toContain("'=cmd|");
      expect(streamed.equals(await referenceFile(pullListColumns, rows))).toBe(true);
    }
    const trail = await exportsOnTrail();
    expect(trail.map((t) => t.details)).toEqual([
      expect.objectContaining({ export: "pulls", filters: { sort: "premium" }, rows: 15 }),
      expect.objectContaining({ export: "pulls", filters: { sort: "name", dir: "desc" } }),
    ]);
  });

  it("writes the cross-sell list and the X-dates as their pages list them", async () => {
    await book();
    const crossSell = await listCrossSell(
      database.db,
      viewScope(staff.manager, "cross-sell:view"),
      {},
      {
        limit: MAX_EXPORT_ROWS,
      },
    );
    expect(crossSell.length).toBe(15);
    const crossSellFile = bytesOf(await chunksOf(streamCrossSellCsv(database.db, database.db, staff.manager, {})));
    expect(crossSellFile.equals(await referenceFile(crossSellColumns, crossSell))).toBe(true);

    const today = "2026-11-01";
    const xdates = await listXDates(
      database.db,
      viewScope(staff.manager, "xdates:view"),
      { range: 180 },
      windowOf(today, 180),
      { limit: MAX_EXPORT_ROWS },
    );
    expect(xdates.length).toBeGreaterThan(15);
    const xdateFile = bytesOf(
      await chunksOf(streamXDatesCsv(database.db, database.db, staff.manager, { range: 180 }, today)),
    );
    expect(xdateFile.equals(await referenceFile(xdateColumns, xdates))).toBe(true);

    const trail = await exportsOnTrail();
    expect(trail.map((t) => [t.details, t.pullIds?.length])).toEqual([
      [expect.objectContaining({ export: "cross-sell", rows: 15 }), 15],
      [expect.objectContaining({ export: "xdates", filters: { range: 180 }, rows: xdates.length }), 15],
    ]);
  });
});
