import { describe, expect, it } from "vitest";
import { quickRanges } from "./quick-ranges";

describe("quickRanges", () => {
  const now = new Date("2026-08-14T23:30:00Z");

  it("ends every range today and starts it 30 or 90 days back, at the quarter or at the year", () => {
    expect(quickRanges({}, now).map((r) => [r.label, r.from, r.to])).toEqual([
      ["Last 30 days", "2026-07-16", "2026-08-14"],
      ["Last 90 days", "2026-05-17", "2026-08-14"],
      ["This quarter", "2026-07-01", "2026-08-14"],
      ["Year to date", "2026-01-01", "2026-08-14"],
    ]);
  });

  it("reads today in UTC, the calendar the reports group by", () => {
    const [, , quarter] = quickRanges({}, new Date("2026-03-31T23:59:59Z"));
    expect(quarter).toMatchObject({ from: "2026-01-01", to: "2026-03-31" });
    const [, , next] = quickRanges({}, new Date("2026-04-01T00:00:00Z"));
    expect(next).toMatchObject({ from: "2026-04-01", to: "2026-04-01" });
  });

  it("keeps the other filters, replaces the dates, and marks the range in use", () => {
    const filter = {
      agent: "b0000000-0000-4000-8000-000000000012",
      period: "week" as const,
      from: "2026-07-01",
      to: "2026-08-14",
    };
    const ranges = quickRanges(filter, now);
    const quarter = new URL(ranges[2]?.href ?? "", "http://x");
    expect(quarter.pathname).toBe("/reports");
    expect(Object.fromEntries(quarter.searchParams)).toEqual({ ...filter });
    expect(ranges.map((r) => r.current)).toEqual([false, false, true, false]);
    const year = new URL(ranges[3]?.href ?? "", "http://x");
    expect(year.searchParams.get("from")).toBe("2026-01-01");
    expect(year.searchParams.get("agent")).toBe(filter.agent);
  });
});
