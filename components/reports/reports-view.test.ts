import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { funnelSteps } from "@/lib/reports/funnel-steps";
import type { Report } from "@/lib/reports/queries";
import type { ReportsPage } from "@/lib/loaders/reports";
import { textWidth } from "./chart-scale";
import { ReportsView } from "./reports-view";

// The reports page as HTML, as the server sends it: every chart an image with a name, its
// table beside it, period labels as people write them and apart from each other, and a
// sentence instead of an empty chart.

const alex = "a0000000-0000-4000-8000-000000000001";
const sam = "a0000000-0000-4000-8000-000000000002";

function reportOf(period: Report["period"], weeks = 0): Report {
  const periods = weeks
    ? Array.from({ length: weeks }, (_, i) =>
        new Date(Date.UTC(2026, 0, 5) + i * 7 * 86_400_000).toISOString().slice(0, 10),
      )
    : ["2026-06-01", "2026-08-01"];
  const byPeriodAgent = periods.flatMap((p, i) => [
    { period: p, agent: alex, label: "Alex Agent", count: 1, cents: 100_000 + i },
    { period: p, agent: sam, label: "Sam Seller", count: 1, cents: 50_000 },
  ]);
  return {
    period,
    won: { count: byPeriodAgent.length, cents: byPeriodAgent.reduce((a, r) => a + r.cents, 0) },
    byAgent: [],
    byPeriod: periods.map((p) => ({ key: p, label: p, count: 2, cents: 150_000 })),
    byPeriodAgent,
    byCarrier: [],
    byLine: [],
    byLink: [],
    closeRatio: {
      rows: [
        { key: alex, label: "Alex Agent", won: 2, lost: 1, ratio: 2 / 3 },
        { key: sam, label: "Sam Seller", won: 1, lost: 3, ratio: 0.25 },
      ],
      won: 3,
      lost: 4,
      ratio: 3 / 7,
    },
    pipeline: { count: 4, cents: 1_234_500 },
    medianDaysToWon: 12.5,
    newPulls: periods.map((p) => ({ period: p, count: 10, successful: 8 })),
    funnel: funnelSteps({ linked: 1_200, successful: 900, assigned: 600, worked: 300, won: 120 }),
    recycledWins: [],
    sourcesByLink: [],
    sourcesByAgent: [],
  };
}

const LOST: ReportsPage["lostReasons"] = [
  { dimension: "reason", key: "PRICE", label: "PRICE", count: 3, lostToCents: 240_000, priced: 2 },
  { dimension: "carrier", key: "<b>GEICO</b>", label: "<b>GEICO</b>", count: 3, lostToCents: 240_000, priced: 2 },
  { dimension: "agent", key: "a1", label: "Alex", count: 3, lostToCents: 240_000, priced: 2 },
];
const render = (
  report: Report,
  filter: ReportsPage["filter"] = { period: report.period },
  lostReasons: ReportsPage["lostReasons"] = LOST,
) =>
  renderToStaticMarkup(
    createElement(ReportsView, {
      page: { filter, ignored: [], report, lostReasons, people: [], offices: [], lines: [], ranges: [] },
    }),
  );
const attr = (html: string, name: string) => [...html.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((m) => m[1]);

describe("the reports page", () => {
  it("draws each figure as a named image beside its table", () => {
    const html = render(reportOf("month"));
    expect(attr(html, "role").filter((r) => r === "img")).toHaveLength(4);
    const names = attr(html, "aria-label");
    expect(names).toContainEqual(
      expect.stringMatching(/^Won premium by month, stacked by agent, Jun 2026 to Aug 2026: \$3,000\.01 in all/),
    );
    expect(names).toContainEqual(
      expect.stringMatching(
        /^Pipeline funnel of the accounts linked in this range: Linked 1,200, Linked successfully 900 \(75% of the step before\)/,
      ),
    );
    expect(names).toContainEqual(
      expect.stringMatching(/^Close ratio by agent, won of won and lost: Alex Agent 66\.7% \(2 of 3\)/),
    );
    // An empty month keeps its slot, in the chart and the table.
    expect(html).toContain('data-period="2026-07-01"');
    expect(html).toContain(">Jul 2026</a>");
    expect(html).toContain("Won premium by month and agent</caption>");
    for (const table of ["byPeriodAgent", "byPeriod", "funnel", "closeRatio", "newPulls"])
      expect(html).toContain(`table=${table}`);
  });

  it("shows the funnel's counts and shares in the chart as in its table", () => {
    const html = render(reportOf("month"));
    const chart = html.slice(
      html.indexOf('data-testid="funnel-chart"'),
      html.indexOf("</svg>", html.indexOf('data-testid="funnel-chart"')),
    );
    expect(chart).toContain(">1,200</text>");
    expect(chart).toContain(">900 · 75%</text>");
    expect(chart).toContain(">120 · 40%</text>");
    const table = html.slice(html.indexOf('data-testid="funnel-table"'));
    expect(table).toMatch(/Linked successfully<\/td><td class="figure">900<\/td><td class="figure">75%<\/td>/);
  });

  it("thins out the week labels of a long range so that none overlap", () => {
    const html = render(reportOf("week", 52));
    const chart = html.slice(html.indexOf('data-testid="won-by-period-chart"'));
    const labels = [
      ...chart.slice(0, chart.indexOf("</svg>")).matchAll(/<text x="([\d.]+)" y="184"[^>]*>([^<]+)<\/text>/g),
    ].map((m) => ({ x: Number(m[1]), text: m[2] ?? "" }));
    expect(labels.length).toBeGreaterThan(2);
    expect(labels.length).toBeLessThan(52);
    // On the axis a week is its first day; the caption says "by week".
    for (const label of labels) expect(label.text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2026$/);
    for (let i = 1; i < labels.length; i += 1) {
      const [a, b] = [labels[i - 1], labels[i]];
      if (a && b) expect(b.x - a.x).toBeGreaterThanOrEqual((textWidth(a.text, 10) + textWidth(b.text, 10)) / 2);
    }
    // The table names the week as people write it.
    expect(html).toContain(">Week of Jan 5, 2026</a>");
  });

  it("says why there is nothing instead of drawing an empty chart", () => {
    const empty: Report = {
      ...reportOf("quarter"),
      won: { count: 0, cents: 0 },
      byPeriod: [],
      byPeriodAgent: [],
      closeRatio: { rows: [], won: 0, lost: 0, ratio: null },
      newPulls: [],
      funnel: funnelSteps({ linked: 0, successful: 0, assigned: 0, worked: 0, won: 0 }),
    };
    const html = render(empty, { period: "quarter", from: "2026-07-01", agent: alex }, []);
    expect(attr(html, "role").filter((r) => r === "img")).toHaveLength(0);
    expect(html).toContain("No pulls were won in this range. Widen the dates or clear the agent filter.");
    expect(html).toContain("No accounts were linked in this range. Widen the dates or clear the agent filter.");
    expect(html).toContain("No pulls were won or lost in this range.");
    expect(html).toContain("No pulls were lost in this range. Widen the dates or clear the agent filter.");
  });

  it("says why deals were lost in words, with the average premium they went for, and a carrier's name as text", () => {
    const html = render(reportOf("month"));
    expect(html).toMatch(
      /data-testid="lost-by-reason".*<td[^>]*>Price<\/td><td[^>]*>3<\/td><td[^>]*>\$1,200\.00 avg \(2\)<\/td>/s,
    );
    expect(html).toContain("&lt;b&gt;GEICO&lt;/b&gt;");
    expect(html).not.toContain("<b>GEICO</b>");
  });
});
