import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { formatCalendarDate, formatLimit, humanize } from "@/lib/format";
import { addDays } from "@/lib/xdates/derive";
import type { CalendarEntry, XDateDay, XDateWindow } from "@/lib/xdates/queries";
import { xdatesHref, type XDateQuery } from "@/lib/xdates/xdates-query";
import { personName } from "@/lib/xdates/words";

// The coming weeks as a month grid, rendered on the server: each day of the range lists its
// largest X-dates with their premium, and "N more" opens that day in the list below. On a phone
// the grid would be unreadable: it is left out there, and the list (the same X-dates) remains.

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Whole dollars: "$1,204". */
export const dollars = (cents: number) => formatLimit(Math.round(cents / 100) * 100);

const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();

export function XDateCalendar({
  window,
  today,
  days,
  entries,
  query,
}: {
  window: XDateWindow;
  today: string;
  days: XDateDay[];
  entries: CalendarEntry[];
  query: XDateQuery;
}) {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const entriesByDay = new Map<string, CalendarEntry[]>();
  for (const entry of entries) entriesByDay.set(entry.day, [...(entriesByDay.get(entry.day) ?? []), entry]);
  const first = addDays(window.from, -weekdayOf(window.from));
  const last = addDays(window.to, 6 - weekdayOf(addDays(window.to, -1)) - 1);
  const weeks: string[][] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    if (weekdayOf(day) === 0) weeks.push([]);
    weeks[weeks.length - 1]?.push(day);
  }
  return (
    <section aria-labelledby="xdate-calendar-title" className="hidden md:block" data-testid="xdate-calendar">
      <h2 id="xdate-calendar-title" className="mb-2 text-lg font-semibold text-slate-900">
        Calendar
      </h2>
      <table className="w-full table-fixed border-collapse rounded-lg bg-white text-xs">
        <caption className="sr-only">
          X-dates from {formatCalendarDate(window.from)} to {formatCalendarDate(addDays(window.to, -1))}, by day
        </caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th
                key={d}
                scope="col"
                className="border border-slate-200 bg-slate-50 px-1 py-1 font-medium text-slate-600"
              >
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const inRange = day >= window.from && day < window.to;
                const summary = byDay.get(day);
                const shown = entriesByDay.get(day) ?? [];
                const more = (summary?.count ?? 0) - shown.length;
                const [, month, date] = day.split("-").map(Number) as [number, number, number];
                return (
                  <td
                    key={day}
                    className={`h-28 border border-slate-200 p-1 align-top ${inRange ? "" : "bg-slate-50 text-slate-600"}`}
                    data-testid={summary ? "xdate-calendar-day" : undefined}
                    data-day={day}
                  >
                    <div className="flex items-baseline justify-between gap-1">
                      <span className={day === today ? "rounded bg-brand-700 px-1 font-semibold text-white" : ""}>
                        {date === 1 || day === first ? `${MONTHS[month - 1]} ${date}` : date}
                      </span>
                      {summary ? (
                        <span className="truncate text-slate-600" title="Premium at stake that day">
                          {dollars(summary.premiumCents)}
                        </span>
                      ) : null}
                    </div>
                    <ul className="mt-1 space-y-0.5">
                      {shown.map((e) => (
                        <li key={`${e.pullId}-${e.policyId}`} className="truncate">
                          <Link
                            href={`/pulls/${e.pullId}`}
                            className={LINK_CLASS}
                            title={`${personName(e)} — ${e.carrierLabel ?? "Unknown carrier"} ${humanize(e.policyType).toLowerCase()}`}
                          >
                            {personName(e)}
                          </Link>{" "}
                          <span className="text-slate-600">
                            {e.annualPremiumCents === null ? "" : dollars(e.annualPremiumCents)}
                          </span>
                        </li>
                      ))}
                    </ul>
                    {more > 0 ? (
                      <Link
                        href={`${xdatesHref(query, { day, page: undefined })}#xdate-list`}
                        className="text-slate-600 underline hover:text-brand-700"
                      >
                        {more} more
                      </Link>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
