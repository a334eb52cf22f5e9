import { z } from "zod";
import { addDays, addMonths, ASSUMED_TERM_MONTHS, daysBetween } from "@/lib/xdates/derive";
import { intervalDays } from "@/lib/service/monitorings-api";

// When a monitored account should be refreshed: a lead time before each renewal, so the
// carrier's renewal offer is in the refresh, instead of on the fixed interval the service keeps
// by itself (a monthly interval buys twelve refreshes a year to see one or two renewals).
// Pure, so the job (refresh-timing.ts), the pull page and the forecast all plan the same way.
// The service refuses a next_pull_date sooner than 30 days after the account's latest pull
// (400), so no plan is sooner than that, whatever the renewal asks for.

/** The service's minimum gap between a monitored account's latest pull and its next refresh. */
export const MIN_REFRESH_GAP_DAYS = 30;
/** The hour (UTC) a timed refresh is asked for: early, so the day's refresh lands in working hours. */
export const REFRESH_HOUR = "06:00:00Z";

/** A policy's renewal as the X-date table knows it (lib/xdates). */
export type Renewal = { xDate: string; termMonths: number | null; carrier: string | null; line: string | null };

export const plannedReasonSchema = z.discriminatedUnion("kind", [
  z.object({
    /** Lead time before an X-date (ON_TIME), or at once because the lead window is open and unseen (CATCH_UP). */
    kind: z.enum(["ON_TIME", "CATCH_UP"]),
    xDate: z.iso.date(),
    carrier: z.string().nullable(),
    line: z.string().nullable(),
    leadTimeDays: z.number().int(),
    /** The day the renewal asked for, when it was sooner than the service allows after the latest pull. */
    heldFrom: z.iso.date().optional(),
  }),
  /** No verified X-date: the service's own interval decides. */
  z.object({ kind: z.literal("INTERVAL"), interval: z.string().nullable() }),
]);
export type PlannedReason = z.infer<typeof plannedReasonSchema>;
export type RefreshPlan = { day: string | null; reason: PlannedReason };

/**
 * When a refresh planned for `day` is asked for: its hour, or, on the first day the service
 * allows, no sooner than 30 days to the minute after the latest pull (which falls on that day).
 */
export function refreshAt(day: string, lastRefreshAt: Date | null): Date {
  const at = new Date(`${day}T${REFRESH_HOUR}`);
  const earliest = lastRefreshAt ? lastRefreshAt.getTime() + MIN_REFRESH_GAP_DAYS * 86_400_000 : 0;
  return new Date(Math.max(at.getTime(), earliest));
}

// How far ahead renewals are looked for: two years covers every term the table holds.
const HORIZON_MONTHS = 24;

/** Every renewal of the policies from `from` on, within the horizon (or up to `until`), soonest first. */
export function renewalsFrom(
  renewals: Renewal[],
  from: string,
  until = addMonths(from, HORIZON_MONTHS),
): Array<Renewal & { on: string }> {
  const all: Array<Renewal & { on: string }> = [];
  for (const renewal of renewals) {
    const term = renewal.termMonths && renewal.termMonths > 0 ? renewal.termMonths : ASSUMED_TERM_MONTHS;
    for (let k = 0, on = renewal.xDate; on <= until; on = addMonths(renewal.xDate, ++k * term)) {
      // Written out rather than spread: the rules page's forecast rolls out every monitored account's renewals.
      if (on >= from)
        all.push({
          xDate: renewal.xDate,
          termMonths: renewal.termMonths,
          carrier: renewal.carrier,
          line: renewal.line,
          on,
        });
    }
  }
  return all.sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
}

/**
 * The next refresh of an account: the lead time before the first renewal whose lead window no
 * refresh has covered yet (one made on or after the window opened saw the offer). A window
 * already open but unseen is refreshed tomorrow. `lastRefreshDay` is the newest pull's day; no
 * plan is sooner than 30 days after it (the reason then says which day the renewal asked for).
 */
export function planRefresh(input: {
  renewals: Renewal[];
  lastRefreshDay: string | null;
  today: string;
  leadTimeDays: number;
  interval: string | null;
}): RefreshPlan {
  return planAmong(renewalsFrom(input.renewals, input.today), 0, input);
}

/**
 * planRefresh over renewals already rolled out and sorted (`upcoming`), read from index `start`:
 * those before `today` or beyond the horizon from it are passed over, so a list rolled out once
 * for a later horizon plans exactly as a fresh renewalsFrom(renewals, today) would.
 */
function planAmong(
  upcoming: Array<Renewal & { on: string }>,
  start: number,
  input: { lastRefreshDay: string | null; today: string; leadTimeDays: number; interval: string | null },
): RefreshPlan {
  const { today, leadTimeDays } = input;
  const horizon = addMonths(today, HORIZON_MONTHS);
  for (let i = start; i < upcoming.length; i++) {
    const renewal = upcoming[i] as Renewal & { on: string };
    if (renewal.on < today) continue;
    if (renewal.on > horizon) break;
    const opens = addDays(renewal.on, -leadTimeDays);
    if (input.lastRefreshDay !== null && input.lastRefreshDay >= opens) continue; // this offer was seen
    const reason = { xDate: renewal.on, carrier: renewal.carrier, line: renewal.line, leadTimeDays };
    const kind = opens > today ? "ON_TIME" : "CATCH_UP";
    const wanted = opens > today ? opens : addDays(today, 1);
    const earliest = input.lastRefreshDay === null ? null : addDays(input.lastRefreshDay, MIN_REFRESH_GAP_DAYS);
    return earliest !== null && wanted < earliest
      ? { day: earliest, reason: { kind, ...reason, heldFrom: wanted } }
      : { day: wanted, reason: { kind, ...reason } };
  }
  return { day: null, reason: { kind: "INTERVAL", interval: input.interval } };
}

/**
 * The refreshes the next `months` would bring, as days: timed as planned, and on the fixed
 * interval the service would keep untouched (every interval since the last refresh), and how
 * many timed ones were held to 30 days after the refresh before them. The forecast on the
 * rules page, and its saving.
 */
export function forecastRefreshes(input: {
  renewals: Renewal[];
  lastRefreshDay: string | null;
  today: string;
  leadTimeDays: number;
  interval: string | null;
  months: number;
}): { timed: string[]; fixed: string[]; held: number } {
  const until = addMonths(input.today, input.months);
  const fixed: string[] = [];
  const step = input.interval ? intervalDays(input.interval) : 0;
  if (step >= 30) {
    let day = input.lastRefreshDay ? addDays(input.lastRefreshDay, step) : input.today;
    // The first interval on or after today, in one step however long ago the last refresh was.
    const behind = daysBetween(day, input.today);
    if (behind > 0) day = addDays(day, Math.ceil(behind / step) * step);
    for (; day < until; day = addDays(day, step)) fixed.push(day);
  }
  // The renewals are rolled out once, far enough for the last plan's horizon: planning each
  // refresh from a fresh roll-out cost the rules page most of a second at 100,000 pulls.
  const upcoming = renewalsFrom(input.renewals, input.today, addMonths(until, HORIZON_MONTHS));
  const timed: string[] = [];
  let held = 0;
  let today = input.today;
  let last = input.lastRefreshDay;
  let start = 0;
  for (;;) {
    while (start < upcoming.length && (upcoming[start] as { on: string }).on < today) start++;
    const plan = planAmong(upcoming, start, { ...input, today, lastRefreshDay: last });
    if (plan.day === null) return { timed: fixed, fixed, held: 0 }; // no X-date: the interval goes on
    if (plan.day >= until) break;
    timed.push(plan.day);
    if (plan.reason.kind !== "INTERVAL" && plan.reason.heldFrom) held++;
    // After the refresh the next plan starts from its day, which covers the window it opened.
    today = plan.day;
    last = plan.day;
  }
  return { timed, fixed, held };
}
