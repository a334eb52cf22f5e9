import "server-only";
import type { Db } from "@/db/types";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { SearchParams } from "@/lib/url/search-params";
import { pageCountOf, pageSlice } from "@/lib/url/page-number";
import { getCalendarFeedState, type CalendarFeedState } from "@/lib/xdates/calendar-feed";
import { isoDay } from "@/lib/xdates/derive";
import {
  calendarEntries,
  countWithoutXDate,
  listXDates,
  windowOf,
  XDATE_PAGE_SIZE,
  xdateSummary,
  type CalendarEntry,
  type NoXDateCount,
  type XDateDay,
  type XDateListRow,
  type XDateOptions,
  type XDateWindow,
} from "@/lib/xdates/queries";
import { DEFAULT_RANGE, parseXDateQuery, type XDateQuery, type XDateRange } from "@/lib/xdates/xdates-query";

// Everything the X-dates page (app/(app)/xdates/page.tsx) shows, in one call: the page renders
// it, and the benchmark (bench/run.ts, "x-dates 90 days") times this very function.

export type XDatesPage = {
  today: string;
  query: XDateQuery;
  ignored: string[];
  range: XDateRange;
  /** The days listed: the whole range, or the one day the calendar's "more" link chose. */
  window: XDateWindow;
  /** The whole range, for the calendar (it always shows every day of it). */
  rangeWindow: XDateWindow;
  days: XDateDay[];
  entries: CalendarEntry[];
  rows: XDateListRow[];
  /** X-dates in the window, and the premium at stake (a year's premium of each policy that states one). */
  total: number;
  premiumCents: number;
  /** X-dates in the window whose premium the carrier did not state. */
  unpriced: number;
  page: number;
  pageCount: number;
  withoutXDate: NoXDateCount[];
  options: XDateOptions;
  /** Agents see their own and the unassigned queue's; managers and admins everyone's. */
  seesAll: boolean;
  feed: CalendarFeedState;
};

export async function loadXDatesPage(
  db: Db,
  user: Actor,
  searchParams: SearchParams,
  today: string = isoDay(),
): Promise<XDatesPage> {
  const { query, ignored } = parseXDateQuery(searchParams);
  const viewer = viewScope(user, "xdates:view");
  const range = query.range ?? DEFAULT_RANGE;
  const rangeWindow = windowOf(today, range);
  const window = windowOf(today, range, query.day);
  const page = query.page ?? 1;
  // Independent reads, in parallel.
  const [{ days: rangeDays, options }, entries, rows, withoutXDate, feed] = await Promise.all([
    xdateSummary(db, viewer, query, rangeWindow),
    calendarEntries(db, viewer, query, rangeWindow),
    listXDates(db, viewer, query, window, pageSlice(page, XDATE_PAGE_SIZE)),
    countWithoutXDate(db, viewer, query),
    getCalendarFeedState(db, user.id),
  ]);
  const listed = rangeDays.filter((d) => d.day >= window.from && d.day < window.to);
  const total = listed.reduce((sum, d) => sum + d.count, 0);
  return {
    today,
    query,
    ignored,
    range,
    window,
    rangeWindow,
    days: rangeDays,
    entries,
    rows,
    total,
    premiumCents: listed.reduce((sum, d) => sum + d.premiumCents, 0),
    unpriced: listed.reduce((sum, d) => sum + d.unpriced, 0),
    page,
    pageCount: pageCountOf(total, XDATE_PAGE_SIZE),
    withoutXDate,
    options,
    // A manager of an office sees others' rows too: the agent filter offers the office's people.
    seesAll: viewer.kind !== "own-or-unassigned",
    feed,
  };
}
