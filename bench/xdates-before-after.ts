// `npm run bench:xdates`: the X-date page's summary before and after its kept sums (migration
// 0052), timed side by side in one run on a seeded book (BENCH_DB_NAME, BENCH_PULLS as for
// `npm run bench:seed`; the book must exist: this opens it, which applies the migrations, and
// never seeds). "Before" is the scan of policy_xdates the page ran on every request (the
// summary's `scan` source, and the loader's same five reads with it); "after" is what the page
// now reads. As the admin, alternating, one at a time, after a warm-up; the machine is shared,
// so compare the ratios. No HTTP, no rendering: `npm run bench` measures the pages themselves.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { loadXDatesPage } from "@/lib/loaders/xdates";
import { pageSlice } from "@/lib/url/page-number";
import { getCalendarFeedState } from "@/lib/xdates/calendar-feed";
import { isoDay } from "@/lib/xdates/derive";
import {
  calendarEntries,
  countWithoutXDate,
  listXDates,
  windowOf,
  XDATE_PAGE_SIZE,
  xdateSummary,
} from "@/lib/xdates/queries";
import { DEFAULT_RANGE, parseXDateQuery } from "@/lib/xdates/xdates-query";
import { benchTarget, openTarget } from "./database";
import { compare as compareSideBySide, iterationsOr, warmupOr } from "./side-by-side";
import { SEED_DEMO_IDS } from "./seed";

const RUNS = { iterations: iterationsOr(20), warmup: warmupOr(3) };

const compare = (label: string, before: () => Promise<unknown>, after: () => Promise<unknown>) =>
  compareSideBySide(label, before, after, RUNS);

/** The loader's five reads as it made them before the sums: the same calls, the summary scanned. */
async function loaderScanning(db: Db, user: Actor, qs: string) {
  const { query } = parseXDateQuery(Object.fromEntries(new URLSearchParams(qs)));
  const viewer = viewScope(user, "xdates:view");
  const today = isoDay();
  const rangeWindow = windowOf(today, query.range ?? DEFAULT_RANGE);
  const window = windowOf(today, query.range ?? DEFAULT_RANGE, query.day);
  return Promise.all([
    xdateSummary(db, viewer, query, rangeWindow, "scan"),
    calendarEntries(db, viewer, query, rangeWindow),
    listXDates(db, viewer, query, window, pageSlice(query.page ?? 1, XDATE_PAGE_SIZE)),
    countWithoutXDate(db, viewer, query, "scan"),
    getCalendarFeedState(db, user.id),
  ]);
}

async function main() {
  const target = benchTarget();
  const connection = await openTarget(target);
  const db: Db = connection.db;
  try {
    const adminId = SEED_DEMO_IDS["admin@example.com"] as string;
    const [admin] = await queryRows<{ name: string }>(db, sql`select name from users where id = ${adminId}`);
    if (!admin) throw new Error(`no admin ${adminId} in ${target.kind === "postgres" ? target.name : target.dir}`);
    const user: Actor = { id: adminId, name: admin.name, role: "ADMIN" };
    const viewer = viewScope(user, "xdates:view");
    const [sizes] = await queryRows<Record<string, number>>(
      db,
      sql`select (select count(*) from pulls)::int as pulls, (select count(*) from policy_xdates)::int as xdates,
                 (select count(*) from xdate_sums)::int as sums, (select count(*) from xdate_option_sums)::int as option_sums,
                 (select count(*) from xdate_sum_deltas)::int + (select count(*) from xdate_option_deltas)::int as deltas`,
    );
    console.log(`[xdates] ${JSON.stringify(sizes)}`);
    const window = windowOf(isoDay(), DEFAULT_RANGE);
    const rows = [];
    for (const [label, qs] of [
      ["x-dates 90 days", ""],
      ["x-dates 90 days, stage WORKING", "stage=WORKING"],
      ["x-dates 90 days, one line", "line=AUTO"],
    ] as const) {
      const { query } = parseXDateQuery(Object.fromEntries(new URLSearchParams(qs)));
      rows.push(
        await compare(
          `summary: ${label}`,
          () => xdateSummary(db, viewer, query, window, "scan"),
          () => xdateSummary(db, viewer, query, window, "kept"),
        ),
        await compare(
          `without an X-date: ${label}`,
          () => countWithoutXDate(db, viewer, query, "scan"),
          () => countWithoutXDate(db, viewer, query, "kept"),
        ),
        await compare(
          `loader: ${label}`,
          () => loaderScanning(db, user, qs),
          () => loadXDatesPage(db, user, Object.fromEntries(new URLSearchParams(qs))),
        ),
      );
    }
    console.table(rows);
  } finally {
    await connection.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
