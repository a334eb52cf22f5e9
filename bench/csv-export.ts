// The largest list CSV (the pull list, 50,000 rows, a manager's view) built whole in memory as the
// routes did before, or streamed as they do now; one way per process, so each has its own peak RSS:
//   BENCH_DB_NAME=coverdesk_bench_scale node --conditions=react-server --import tsx bench/csv-export.ts whole
//   BENCH_DB_NAME=coverdesk_bench_scale node --conditions=react-server --import tsx bench/csv-export.ts stream
// It opens the book without migrating it (a shared book stays at its own schema), and adds one
// CSV_EXPORTED line to its audit trail per run.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "@/db/schema";
import type { Db } from "@/db/types";
import { exportListCsv, MAX_EXPORT_ROWS } from "@/lib/csv/list-export";
import { csvResponse } from "@/lib/csv/to-csv";
import { pullListColumns, streamPullListCsv } from "@/lib/pulls/list-csv";
import { listPullRows } from "@/lib/pulls/queries";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { benchTarget } from "./database";

installSealedJsonCodec();

const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024);

async function main() {
  const way = process.argv[2] === "whole" ? "whole" : "stream";
  const target = benchTarget();
  if (target.kind !== "postgres") throw new Error("needs DATABASE_URL");
  const client = postgres(target.url, { max: 4, onnotice: () => {}, connection: { jit: "off" } });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  try {
    const [admin] = await db.select().from(schema.users).where(eq(schema.users.role, "ADMIN")).limit(1);
    if (!admin) throw new Error("the book has no admin");
    const actor = { id: admin.id, name: admin.name, role: admin.role };
    const before = megabytes(process.resourceUsage().maxRSS);
    const started = performance.now();
    let bytes = 0;
    let firstByteMs = 0;
    if (way === "whole") {
      const rows = await listPullRows(db, { kind: "all" }, { page: 1 }, MAX_EXPORT_ROWS);
      const body = await exportListCsv(db, actor, { name: "pulls", filters: {}, columns: pullListColumns, rows });
      const response = csvResponse("coverdesk-pulls", body);
      firstByteMs = performance.now() - started;
      bytes = (await response.arrayBuffer()).byteLength;
    } else {
      const response = csvResponse("coverdesk-pulls", streamPullListCsv(db, db, actor, {}));
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += next.value.byteLength;
      }
    }
    const ms = performance.now() - started;
    const peak = megabytes(process.resourceUsage().maxRSS);
    console.log(
      JSON.stringify({
        way,
        bytes,
        ms: Math.round(ms),
        firstByteMs: Math.round(firstByteMs),
        rssBeforeMb: before,
        peakRssMb: peak,
      }),
    );
  } finally {
    await client.end({ timeout: 5 });
  }
}

void main();
