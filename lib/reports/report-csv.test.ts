import { describe, expect, it } from "vitest";
import { funnelSteps } from "./funnel-steps";
import type { Report } from "./queries";
import { REPORT_TABLES, reportCsv, reportTableRowCount } from "./report-csv";

// The CSV of the two tables the charts added: periods stay ISO days, money exact dollars.

const report = {
  period: "quarter",
  byPeriodAgent: [
    { period: "2026-07-01", agent: "a", label: "Alex Agent", count: 2, cents: 184_250 },
    { period: "2026-07-01", agent: "", label: "No one", count: 1, cents: 1 },
  ],
  funnel: funnelSteps({ linked: 8, successful: 6, assigned: 3, worked: 0, won: 0 }),
} as unknown as Report;

describe("reportCsv", () => {
  it("writes won premium by period and agent a row each, with the period's first day", () => {
    expect(reportCsv(report, "byPeriodAgent")).toBe(
      "quarter starting,agent,won pulls,won premium\r\n2026-07-01,Alex Agent,2,1842.50\r\n2026-07-01,No one,1,0.01\r\n",
    );
    expect(reportTableRowCount(report, "byPeriodAgent")).toBe(2);
  });

  it("writes the funnel's steps with the share of the step before, empty where there is none", () => {
    expect(reportCsv(report, "funnel")).toBe(
      "step,pulls,share of previous step\r\nLinked,8,\r\nLinked successfully,6,0.7500\r\nAssigned,3,0.5000\r\nWorked (won or lost),0,0.0000\r\nWon,0,\r\n",
    );
    expect(reportTableRowCount(report, "funnel")).toBe(5);
  });

  it("offers both tables to the CSV route", () => {
    expect(REPORT_TABLES).toEqual(expect.arrayContaining(["byPeriodAgent", "funnel"]));
  });
});
