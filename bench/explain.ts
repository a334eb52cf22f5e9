// EXPLAIN ANALYZE of every statement a page issues, for tuning:
//   node --conditions=react-server --import tsx bench/explain.ts list "q=smith&sort=name"
//   node --conditions=react-server --import tsx bench/explain.ts report "period=week"
// Kinds: list, report, csv. Uses the benchmark's database (bench/database.ts).
import { parsePullListQuery } from "@/lib/pulls/list-query";
import { listPullFilterOptions, listPullRows, listPulls } from "@/lib/pulls/queries";
import { getReport } from "@/lib/reports/queries";
import { parseReportFilter } from "@/lib/reports/report-filter";
import { benchTarget } from "./database";
import { openCaptureDb } from "./sql-capture";

async function main() {
  const [kind = "list", qs = ""] = process.argv.slice(2);
  const params = Object.fromEntries(new URLSearchParams(qs));
  const capture = await openCaptureDb(benchTarget());
  try {
    const statements = await capture.capture(async (db) => {
      if (kind === "report") await getReport(db, parseReportFilter(params).filter);
      else if (kind === "csv")
        await listPullRows(db, { kind: "all" }, { ...parsePullListQuery(params).query, page: 1 }, 50_000);
      else
        await Promise.all([
          listPulls(db, { kind: "all" }, parsePullListQuery(params).query),
          listPullFilterOptions(db, { kind: "all" }),
        ]);
    });
    for (const s of statements) {
      const rows = await capture.explain(s);
      console.log(`\n${s.query}\n-- ${JSON.stringify(s.params)}\n${rows.join("\n")}`);
    }
  } finally {
    await capture.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
