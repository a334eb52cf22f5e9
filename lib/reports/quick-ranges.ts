import type { ReportFilter } from "./report-filter";

// The date ranges a manager asks for most, as plain links beside From and To. Computed from
// today's date in UTC, the calendar the reports group by, and ending today (To is inclusive).

export type QuickRange = { label: string; from: string; to: string; href: string; current: boolean };

const iso = (date: Date) => date.toISOString().slice(0, 10);

export function quickRanges(filter: ReportFilter, now: Date = new Date()): QuickRange[] {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const daysBack = (days: number) => new Date(today.getTime() - days * 86_400_000);
  const quarterStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (today.getUTCMonth() % 3), 1));
  const yearStart = new Date(Date.UTC(today.getUTCFullYear(), 0, 1));
  const ranges: Array<[string, Date]> = [
    // "Last 30 days" counts today as one of them.
    ["Last 30 days", daysBack(29)],
    ["Last 90 days", daysBack(89)],
    ["This quarter", quarterStart],
    ["Year to date", yearStart],
  ];
  return ranges.map(([label, start]) => {
    const range = { from: iso(start), to: iso(today) };
    // The other filters stay as they are; only the dates change.
    const params = new URLSearchParams(
      Object.entries({ ...filter, ...range }).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    return {
      label,
      ...range,
      href: `/reports?${params.toString()}`,
      current: filter.from === range.from && filter.to === range.to,
    };
  });
}
