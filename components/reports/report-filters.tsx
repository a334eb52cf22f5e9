import Link from "next/link";
import { humanize } from "@/lib/format";
import type { QuickRange } from "@/lib/reports/quick-ranges";
import type { ReportFilter } from "@/lib/reports/report-filter";

// The reports' filters as a plain GET form (the URL is the state), and the common date ranges
// beside it as links: no script either way.

const input = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

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
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <form method="get" aria-label="Report filters" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">From</span>
          <input type="date" name="from" defaultValue={filter.from ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">To</span>
          <input type="date" name="to" defaultValue={filter.to ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Agent</span>
          <select name="agent" defaultValue={filter.agent ?? ""} className={input}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Line of business</span>
          <select name="line" defaultValue={filter.line ?? ""} className={input}>
            <option value="">Any</option>
            {lines.map((l) => (
              <option key={l} value={l}>
                {humanize(l)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Link (public alias)</span>
          <input name="link" defaultValue={filter.link ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">By</span>
          <select name="period" defaultValue={filter.period ?? "month"} className={input}>
            <option value="month">Month</option>
            <option value="week">Week</option>
            <option value="quarter">Quarter</option>
          </select>
        </label>
        <button type="submit" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white hover:bg-brand-900">
          Apply
        </button>
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
    </div>
  );
}
