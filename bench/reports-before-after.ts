// `npm run bench:reports`: the reports page's figures and the rules page's forecast, before and
// after their rollups, timed side by side in one run on the benchmark's book (BENCH_PULLS,
// BENCH_DB_NAME as for `npm run bench:seed`): "before" computes them from the pulls
// (lib/reports/queries-from-pulls.ts, getRefreshForecast), "after" is what the pages now read
// (getReport and getLostReasons over the rollups, the stored forecast). Alternating, one at a
// time, after a warm-up; the machine is shared, so compare the ratios. No HTTP, no rendering:
// `npm run bench` measures the pages themselves.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { getRefreshForecast } from "@/lib/monitoring/refresh-forecast";
import { getRefreshForecastAsOf, storeRefreshForecast } from "@/lib/monitoring/stored-forecast";
import { getLostReasons, getReport, getWonAndCloseRatio } from "@/lib/reports/queries";
import {
  computeLostReasonsFromPulls,
  computeReportFromPulls,
  computeWonAndCloseRatioFromPulls,
  getMedianDaysToWon,
} from "@/lib/reports/queries-from-pulls";
import { getRecycledWins } from "@/lib/reports/recycled-wins";
import { getSourceFigures } from "@/lib/reports/sources";
import { getMedianDaysToWonFromRollups, getSourceFiguresFromRollups } from "@/lib/reports/sources-from-rollups";
import { refreshReportRollups } from "@/lib/reports/rollups";
import { parseReportFilter } from "@/lib/reports/report-filter";
import { getAgencyRules } from "@/lib/rules/agency-rules";
import { benchTarget, openTarget, seededTarget } from "./database";
import { compare as compareSideBySide, iterationsOr, stats, timed, warmupOr } from "./side-by-side";
import { SEED_AGENTS } from "./seed";
import { seedSettings } from "./seed-cli";

const RUNS = { iterations: iterationsOr(15), warmup: warmupOr(2) };

const compare = (label: string, before: () => Promise<unknown>, after: () => Promise<unknown>) =>
  compareSideBySide(label, before, after, RUNS);

/** A part with no "before": the same query before and after, timed once. */
async function alone(label: string, work: () => Promise<unknown>) {
  for (let i = 0; i < RUNS.warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS.iterations; i++) times.push(await timed(work));
  const s = stats(times);
  return {
    what: label,
    "before p50": s.p50,
    "before p95": s.p95,
    "after p50": s.p50,
    "after p95": s.p95,
    "p95 before/after": 1,
  };
}

async function main() {
  const settings = seedSettings();
  const target = benchTarget(settings.count);
  await seededTarget(target, settings, (line) => console.log(`[seed] ${line}`));
  const connection = await openTarget(target);
  const db: Db = connection.db;
  try {
    const [newest] = await queryRows<{ v: string }>(
      db,
      sql`select max(service_created_at)::date::text as v from pulls`,
    );
    const end = new Date(`${newest?.v ?? settings.now.toISOString().slice(0, 10)}T00:00:00Z`);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const monthAgo = day(new Date(end.getTime() - 30 * 86_400_000));
    const [sizes] = await queryRows<{ pulls: number; facts: number; rollups: number }>(
      db,
      sql`select (select count(*) from pulls)::int as pulls, (select count(*) from report_facts)::int as facts,
                 (select count(*) from report_rollups)::int as rollups,
                 (select count(*) from report_source_facts)::int as source_facts,
                 (select count(*) from report_source_rollups)::int as source_rollups`,
    );
    console.log(`[reports] ${JSON.stringify(sizes)}`);
    const queries: Array<[string, string]> = [
      ["all time, by month (default)", ""],
      ["all time, by week", "period=week"],
      ["last 30 days", `from=${monthAgo}&to=${day(end)}`],
      ["one agent", `agent=${SEED_AGENTS[1].id}`],
      ["one line of business", "line=AUTO"],
      ["one link", "link=renewal-review"],
    ];
    const rows = [];
    for (const [label, qs] of queries) {
      const { filter } = parseReportFilter(Object.fromEntries(new URLSearchParams(qs)));
      rows.push(
        await compare(
          `reports: ${label}`,
          () => Promise.all([computeReportFromPulls(db, filter), computeLostReasonsFromPulls(db, filter)]),
          () => Promise.all([getReport(db, filter), getLostReasons(db, filter)]),
        ),
      );
    }
    // The parts of the default report: summed now, and still read from the pulls.
    const all = parseReportFilter({}).filter;
    rows.push(
      await compare(
        "part: won premium and close ratio",
        () => computeWonAndCloseRatioFromPulls(db, all),
        () => getWonAndCloseRatio(db, all),
      ),
      await compare(
        "part: lost reasons",
        () => computeLostReasonsFromPulls(db, all),
        () => getLostReasons(db, all),
      ),
      // The sources and the median as the report reads them: its refresh, then the sums.
      await compare(
        "part: median days to WON",
        () => getMedianDaysToWon(db, all),
        async () => {
          await refreshReportRollups(db);
          return getMedianDaysToWonFromRollups(db, all);
        },
      ),
      await compare(
        "part: sources by link and agent",
        () => getSourceFigures(db, all),
        async () => {
          await refreshReportRollups(db);
          return getSourceFiguresFromRollups(db, all);
        },
      ),
      await compare(
        "part: sources, last 30 days",
        () => getSourceFigures(db, parseReportFilter({ from: monthAgo, to: day(end) }).filter),
        async () => {
          await refreshReportRollups(db);
          return getSourceFiguresFromRollups(db, parseReportFilter({ from: monthAgo, to: day(end) }).filter);
        },
      ),
      await alone("part, from the pulls: recycled wins", () => getRecycledWins(db, all)),
    );
    const rules = await getAgencyRules(db);
    await storeRefreshForecast(db, { rules });
    rows.push(
      await compare(
        "rules: refresh forecast",
        () => getRefreshForecast(db, { leadTimeDays: rules.leadTimeDays, budget: rules.refreshBudgetPerMonth }),
        () => getRefreshForecastAsOf(db, rules),
      ),
    );
    console.log(
      `\nBefore and after the rollups: ${settings.count.toLocaleString("en-US")} pulls, ${RUNS.iterations} timed runs of each after ${RUNS.warmup} warm-up (ms)`,
    );
    console.table(rows);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
