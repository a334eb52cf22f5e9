import { humanize } from "@/lib/format";
import type { XDateOptions } from "@/lib/xdates/queries";
import { RANGES, xdatesHref, type XDateQuery, type XDateRange } from "@/lib/xdates/xdates-query";
import { FilterSelect } from "@/components/ui/filter-select";
import { AgentFilter, FilterButtons, StageFilter } from "@/components/ui/list-filters";
import { TabLink } from "@/components/ui/tab-link";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";

// The range tabs and the filters, as links and a plain GET form: they work without JavaScript,
// and every view is a URL that can be shared, bookmarked and reloaded.

export function XDateRangeTabs({ query, range }: { query: XDateQuery; range: XDateRange }) {
  return (
    <nav aria-label="How far ahead" className="flex flex-wrap gap-1" data-testid="xdate-ranges">
      {RANGES.map((days) => {
        const current = days === range;
        return (
          <TabLink
            key={days}
            href={xdatesHref(query, { range: days, page: undefined, day: undefined })}
            current={current}
            boxed
            className="text-sm"
          >
            {days} days
          </TabLink>
        );
      })}
    </nav>
  );
}

export function XDateFilters({
  query,
  range,
  options,
  seesAll,
  userId,
}: {
  query: XDateQuery;
  range: XDateRange;
  options: XDateOptions;
  seesAll: boolean;
  userId: string;
}) {
  const filtered = Boolean(query.agent || query.line || query.carrier || query.stage || query.link || query.day);
  return (
    <form method="get" action="/xdates" aria-label="Filter X-dates" className={cn(CARD_CLASS, "space-y-3 p-4")}>
      <input type="hidden" name="range" value={range} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <AgentFilter value={query.agent} agents={options.agents} seesAll={seesAll} userId={userId} />
        <FilterSelect
          name="line"
          label="Line of business"
          value={query.line}
          options={options.lines.map((l) => ({ value: l, label: humanize(l) }))}
        />
        <FilterSelect
          name="carrier"
          label="Carrier"
          value={query.carrier}
          options={options.carriers.map((c) => ({ value: c, label: c }))}
        />
        <StageFilter value={query.stage} />
        <FilterSelect
          name="link"
          label="Link"
          value={query.link}
          options={options.links.map((l) => ({ value: l, label: l }))}
        />
      </div>
      <FilterButtons filtered={filtered} clearHref={xdatesHref({ range })} />
    </form>
  );
}
