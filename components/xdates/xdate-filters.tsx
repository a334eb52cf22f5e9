import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { humanize } from "@/lib/format";
import { PULL_STAGES } from "@/lib/workflow/stages";
import type { XDateOptions } from "@/lib/xdates/queries";
import { RANGES, xdatesHref, type XDateQuery, type XDateRange } from "@/lib/xdates/xdates-query";
import { FilterSelect } from "@/components/ui/filter-select";
import { TabLink } from "@/components/ui/tab-link";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { Button } from "@/components/ui/button";

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
  const agents = seesAll
    ? options.agents.map((a) => ({ value: a.id, label: a.name }))
    : [{ value: userId, label: "Mine" }];
  const filtered = Boolean(query.agent || query.line || query.carrier || query.stage || query.link || query.day);
  return (
    <form method="get" action="/xdates" aria-label="Filter X-dates" className={cn(CARD_CLASS, "space-y-3 p-4")}>
      <input type="hidden" name="range" value={range} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <FilterSelect
          name="agent"
          label="Agent"
          value={query.agent}
          options={[...agents, { value: "unassigned", label: "Unassigned" }]}
        />
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
        <FilterSelect
          name="stage"
          label="Stage"
          value={query.stage}
          options={PULL_STAGES.map((s) => ({ value: s, label: humanize(s) }))}
        />
        <FilterSelect
          name="link"
          label="Link"
          value={query.link}
          options={options.links.map((l) => ({ value: l, label: l }))}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit">Filter</Button>
        {filtered ? (
          <Link href={xdatesHref({ range })} className={cn(LINK_CLASS, "text-sm")}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
