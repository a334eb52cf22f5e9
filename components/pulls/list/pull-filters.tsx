import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { humanize } from "@/lib/format";
import type { PullListQuery } from "@/lib/pulls/list-query";
import { PULL_STAGES } from "@/lib/core/pull-stages";
import type { PullListOptions } from "@/lib/pulls/queries";
import { DateRangeFields } from "@/components/ui/filter-form";
import { FilterSelect } from "@/components/ui/filter-select";
import { Input } from "@/components/ui/input";
import { Button } from "@/components/ui/button";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";

// Search and filters as a plain GET form: it works without JavaScript, and the result is a
// URL that can be shared, bookmarked and reloaded.

const enumOptions = (values: string[]) => values.map((v) => ({ value: v, label: humanize(v) }));

export function PullFilters({ query, options }: { query: PullListQuery; options: PullListOptions }) {
  return (
    <form
      method="get"
      action="/pulls"
      aria-label="Search and filter linked accounts"
      className={cn(CARD_CLASS, "space-y-3 p-4")}
    >
      {query.sort ? <input type="hidden" name="sort" value={query.sort} /> : null}
      {query.dir ? <input type="hidden" name="dir" value={query.dir} /> : null}
      {/* Drill-downs from the reports have no field of their own here: they ride along. */}
      {(["link", "lines", "wonBy", "wonFrom", "wonTo"] as const).map((key) =>
        query[key] ? <input key={key} type="hidden" name={key} value={query[key]} /> : null,
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <label className="flex-1">
          <span className="sr-only">Search</span>
          <Input
            type="search"
            name="q"
            defaultValue={query.q ?? ""}
            maxLength={100}
            placeholder="Name, email, phone, policy number, VIN, address…"
            className="w-full"
          />
        </label>
        <Button type="submit">Search</Button>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <FilterSelect name="status" label="Status" value={query.status} options={enumOptions(options.statuses)} />
        <FilterSelect name="type" label="Pull type" value={query.type} options={enumOptions(options.types)} />
        <FilterSelect name="carrier" label="Carrier" value={query.carrier} options={options.carriers} />
        <FilterSelect
          name="policyType"
          label="Line of business"
          value={query.policyType}
          options={enumOptions(options.policyTypes)}
        />
        <FilterSelect name="stage" label="Stage" value={query.stage} options={enumOptions([...PULL_STAGES])} />
        <FilterSelect
          name="assignee"
          label="Assignee"
          value={query.assignee}
          options={[
            { value: "unassigned", label: "Unassigned" },
            ...options.assignees.map((a) => ({ value: a.id, label: a.name })),
          ]}
        />
        <FilterSelect
          name="monitored"
          label="Monitored"
          value={query.monitored}
          options={[
            { value: "yes", label: "Monitored" },
            { value: "no", label: "Not monitored" },
          ]}
        />
        <FilterSelect
          name="expiring"
          label="Expiring within"
          value={query.expiring}
          options={[30, 60, 90, 180].map((d) => ({ value: String(d), label: `${d} days` }))}
        />
        <FilterSelect
          name="archived"
          label="Archived"
          value={query.archived}
          options={[
            { value: "include", label: "Include archived" },
            { value: "only", label: "Only archived" },
          ]}
        />
        <DateRangeFields from={query.from} to={query.to} fromLabel="Linked from" toLabel="Linked to" />
        <div className="flex items-end gap-2">
          <Button type="submit" variant="secondary">
            Apply
          </Button>
          <Link href="/pulls" className={cn(LINK_CLASS, "px-1 py-1.5 text-sm")}>
            Clear all
          </Link>
        </div>
      </div>
    </form>
  );
}
