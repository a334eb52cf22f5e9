import Link from "next/link";
import { humanize } from "@/lib/format";
import type { QuickRange } from "@/lib/reports/quick-ranges";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { DateRangeFields, FilterField, FilterForm } from "@/components/ui/filter-form";
import { FilterSelect } from "@/components/ui/filter-select";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Card } from "@/components/ui/card";
import { LINK_CLASS } from "@/components/ui/link-class";

// The reports' filters (the kit's GET filter form: the URL is the state), and the common date ranges
// beside it as links: no script either way.

export function ReportFilters({
  filter,
  people,
  offices,
  lines,
  ranges,
}: {
  filter: ReportFilter;
  people: Array<{ id: string; name: string }>;
  /** Offered to those who see the whole agency, when it has offices. */
  offices: Array<{ id: string; name: string }>;
  lines: string[];
  ranges: QuickRange[];
}) {
  return (
    <Card as="div" className="space-y-2 text-sm">
      <FilterForm label="Report filters" clearHref="/reports" submitVariant="primary">
        <DateRangeFields from={filter.from} to={filter.to} />
        <FilterSelect
          name="agent"
          label="Agent"
          anyLabel="Everyone"
          value={filter.agent}
          options={people.map((p) => ({ value: p.id, label: p.name }))}
        />
        {offices.length > 0 && (
          <FilterSelect
            name="office"
            label="Office"
            anyLabel="Every office"
            value={filter.office}
            options={offices.map((o) => ({ value: o.id, label: o.name }))}
          />
        )}
        <FilterSelect
          name="line"
          label="Line of business"
          value={filter.line}
          options={lines.map((l) => ({ value: l, label: humanize(l) }))}
        />
        <FilterField label="Link (public alias)">
          <Input name="link" defaultValue={filter.link ?? ""} />
        </FilterField>
        <FilterField label="By">
          <Select name="period" defaultValue={filter.period ?? "month"}>
            <option value="month">Month</option>
            <option value="week">Week</option>
            <option value="quarter">Quarter</option>
          </Select>
        </FilterField>
      </FilterForm>
      <nav aria-label="Date ranges" className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs text-slate-600">Quick ranges:</span>
        {ranges.map((r) => (
          <Link
            key={r.label}
            href={r.href}
            aria-current={r.current ? "true" : undefined}
            className={r.current ? "font-semibold text-slate-900" : LINK_CLASS}
          >
            {r.label}
          </Link>
        ))}
      </nav>
    </Card>
  );
}
