import Link from "next/link";
import { humanize } from "@/lib/format";
import type { QuickRange } from "@/lib/reports/quick-ranges";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Card } from "@/components/ui/card";

// The reports' filters as a plain GET form (the URL is the state), and the common date ranges
// beside it as links: no script either way.

export function ReportFilters({
  filter,
  people,
  lines,
  ranges,
}: {
  filter: ReportFilter;
  people: Array<{ id: string; name: string }>;
  lines: string[];
  ranges: QuickRange[];
}) {
  return (
    <Card as="div" className="space-y-2 text-sm">
      <form method="get" aria-label="Report filters" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">From</span>
          <Input type="date" name="from" defaultValue={filter.from ?? ""} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">To</span>
          <Input type="date" name="to" defaultValue={filter.to ?? ""} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Agent</span>
          <Select name="agent" defaultValue={filter.agent ?? ""}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Line of business</span>
          <Select name="line" defaultValue={filter.line ?? ""}>
            <option value="">Any</option>
            {lines.map((l) => (
              <option key={l} value={l}>
                {humanize(l)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Link (public alias)</span>
          <Input name="link" defaultValue={filter.link ?? ""} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">By</span>
          <Select name="period" defaultValue={filter.period ?? "month"}>
            <option value="month">Month</option>
            <option value="week">Week</option>
            <option value="quarter">Quarter</option>
          </Select>
        </label>
        <Button type="submit">Apply</Button>
        <Link href="/reports" className="px-1 py-1.5 text-brand-700 hover:underline">
          Clear
        </Link>
      </form>
      <nav aria-label="Date ranges" className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs text-slate-600">Quick ranges:</span>
        {ranges.map((r) => (
          <Link
            key={r.label}
            href={r.href}
            aria-current={r.current ? "true" : undefined}
            className={r.current ? "font-semibold text-slate-900" : "text-brand-700 hover:underline"}
          >
            {r.label}
          </Link>
        ))}
      </nav>
    </Card>
  );
}
