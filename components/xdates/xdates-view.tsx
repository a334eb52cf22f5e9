import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import Link from "next/link";
import { Pagination } from "@/components/ui/pagination";
import { formatCalendarDate, formatCount } from "@/lib/format";
import { addDays, REASON_WORDS, type NoXDateReason } from "@/lib/xdates/derive";
import type { XDatesPage } from "@/lib/loaders/xdates";
import { xdatesHref } from "@/lib/xdates/xdates-query";
import { dollars, XDateCalendar } from "./xdate-calendar";
import { XDateFilters, XDateRangeTabs } from "./xdate-filters";
import { XDateTable } from "./xdate-table";
import { PageHeader } from "@/components/ui/page-header";

// The X-dates page: the policies whose term ends in the coming weeks, as a calendar and a list
// with the premium at stake, and what has no X-date and why. Rendered from the loader's answer.

function withoutXDateWords(counts: XDatesPage["withoutXDate"]): string | null {
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  if (total === 0) return null;
  const parts = counts.map((c) => `${formatCount(c.count)} ${REASON_WORDS[c.reason as NoXDateReason] ?? c.reason}`);
  return `${formatCount(total)} ${total === 1 ? "policy has" : "policies have"} no X-date: ${parts.join(", ")}.`;
}

export function XDatesView({
  data,
  userId,
  feedPanel,
}: {
  data: XDatesPage;
  userId: string;
  feedPanel: React.ReactNode;
}) {
  const { query, range, window, rangeWindow, today, total, premiumCents, unpriced } = data;
  const filtered = Boolean(query.agent || query.line || query.carrier || query.stage || query.link);
  const last = addDays(window.to, -1);
  const span =
    window.from === last
      ? formatCalendarDate(window.from)
      : `${formatCalendarDate(window.from)} to ${formatCalendarDate(last)}`;
  const noXDate = withoutXDateWords(data.withoutXDate);
  const csvHref = xdatesHref(query, { page: undefined }, "/api/xdates/csv");
  return (
    <div className="space-y-4">
      <PageHeader title="X-dates">
        <a href={csvHref} className={cn(LINK_CLASS, "text-sm")}>
          Download CSV
        </a>
      </PageHeader>
      <p className="text-sm text-slate-700">
        When each policy&apos;s term ends, so you can quote before it renews: the expiry the carrier sent, or, once it
        has passed, the next renewal by the policy&apos;s term.{" "}
        {data.seesAll ? "Every agent's accounts." : "Your accounts and the unassigned queue."}
      </p>
      <XDateRangeTabs query={query} range={range} />
      <XDateFilters query={query} range={range} options={data.options} seesAll={data.seesAll} userId={userId} />
      {data.ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Some of the link&apos;s filters could not be read and were left out: {data.ignored.join(", ")}.
        </p>
      ) : null}
      <p className="text-base text-slate-900" data-testid="xdate-totals" aria-live="polite">
        <strong>{formatCount(total)}</strong> {total === 1 ? "X-date" : "X-dates"} from {span}
        {filtered ? " matching the filters" : ""}, <strong>{dollars(premiumCents)}</strong> a year in premium at stake
        {unpriced > 0 ? ` (${formatCount(unpriced)} without a stated premium)` : ""}.
        {query.day ? (
          <>
            {" "}
            <Link href={xdatesHref(query, { day: undefined, page: undefined })} className="text-brand-700 underline">
              Show all {range} days
            </Link>
          </>
        ) : null}
      </p>
      {noXDate ? (
        <p className="text-sm text-slate-600" data-testid="xdate-unknown">
          {noXDate} They are left out of the calendar and the list; each policy&apos;s page says why.
        </p>
      ) : null}
      <XDateCalendar window={rangeWindow} today={today} days={data.days} entries={data.entries} query={query} />
      <section aria-labelledby="xdate-list-title" id="xdate-list" className="space-y-2">
        <h2 id="xdate-list-title" className="text-lg font-semibold text-slate-900">
          List
        </h2>
        <XDateTable
          rows={data.rows}
          today={today}
          empty={
            <div className={EMPTY_STATE_CLASS} data-testid="xdates-empty">
              <p className="font-medium">
                {filtered ? "No X-dates match these filters in this range." : `No X-dates in the next ${range} days.`}
              </p>
              <p className="mt-1 text-sm">
                {filtered
                  ? "Clear a filter or look further ahead."
                  : data.seesAll
                    ? "X-dates come from the policies of linked accounts: once a consumer links an account whose policy ends in this range, it shows here. Try a longer range."
                    : "X-dates come from the policies of your accounts and the unassigned queue: take a pull from the queue, or try a longer range."}
              </p>
            </div>
          }
        />
        <Pagination page={data.page} pageCount={data.pageCount} basePath="/xdates" query={query} />
      </section>
      {feedPanel}
    </div>
  );
}
