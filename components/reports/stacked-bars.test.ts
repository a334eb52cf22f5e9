import { describe, expect, it } from "vitest";
import { cellOf, chartSeries, OTHERS, stackColumns, type SplitRow } from "./stacked-bars";

const row = (period: string, agent: string, cents: number): SplitRow => ({
  period,
  agent,
  label: agent === "" ? "No one" : `Agent ${agent}`,
  cents,
});

describe("chartSeries", () => {
  it("draws every agent, the largest total first, when there are colours enough", () => {
    const rows = [row("2026-07-01", "a", 100), row("2026-08-01", "b", 300), row("2026-08-01", "a", 150)];
    const { series, keyOf } = chartSeries(rows, 8);
    expect(series).toEqual([
      { key: "b", label: "Agent b" },
      { key: "a", label: "Agent a" },
    ]);
    expect(keyOf("a")).toBe("a");
  });

  it("folds the smallest agents into one series when there are more agents than colours", () => {
    const rows = ["a", "b", "c", "d"].map((agent, i) => row("2026-08-01", agent, (i + 1) * 100));
    const { series, keyOf } = chartSeries(rows, 3);
    expect(series.map((s) => s.key)).toEqual(["d", "c", OTHERS]);
    expect(series[2]?.label).toBe("Other agents");
    expect([keyOf("a"), keyOf("b"), keyOf("d")]).toEqual([OTHERS, OTHERS, "d"]);
  });
});

describe("stackColumns", () => {
  it("stacks each period's agents bottom up in series order, to the period's total", () => {
    const rows = [
      row("2026-07-01", "a", 100),
      row("2026-07-01", "b", 250),
      row("2026-09-01", "a", 40),
      row("2026-09-01", "", 60),
    ];
    const { series, keyOf } = chartSeries(rows, 8);
    const columns = stackColumns(["2026-07-01", "2026-08-01", "2026-09-01"], series, rows, keyOf);
    expect(columns.map((c) => c.total)).toEqual([350, 0, 100]);
    expect(columns[0]?.segments).toEqual([
      { series: "b", from: 0, to: 250 },
      { series: "a", from: 250, to: 350 },
    ]);
    // An empty period keeps its slot, with nothing in it.
    expect(columns[1]).toEqual({ slot: "2026-08-01", total: 0, segments: [] });
    expect(columns[2] && cellOf(columns[2], "")).toBe(60);
    expect(columns[2] && cellOf(columns[2], "b")).toBe(0);
    // Every segment starts where the one below it ends.
    for (const column of columns)
      column.segments.forEach((s, i) => expect(s.from).toBe(i === 0 ? 0 : column.segments[i - 1]?.to));
  });

  it("adds the folded agents of a period into one segment", () => {
    const rows = [row("2026-08-01", "a", 500), row("2026-08-01", "b", 20), row("2026-08-01", "c", 30)];
    const { series, keyOf } = chartSeries(rows, 2);
    const [column] = stackColumns(["2026-08-01"], series, rows, keyOf);
    expect(column?.segments).toEqual([
      { series: "a", from: 0, to: 500 },
      { series: OTHERS, from: 500, to: 550 },
    ]);
  });
});
