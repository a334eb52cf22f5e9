import { centsToDollars, toCsv, type Cell } from "@/lib/csv/to-csv";
import type { Report } from "./queries";
import { sourcesCsv } from "./sources-csv";

// Each table of the reports page as CSV, with money as exact decimal dollars ("1234.56").

export const REPORT_TABLES = [
  "byAgent",
  "byPeriod",
  "byPeriodAgent",
  "byCarrier",
  "byLine",
  "byLink",
  "closeRatio",
  "newPulls",
  "funnel",
  "recycledWins",
  "sourcesByLink",
  "sourcesByAgent",
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

export function reportCsv(report: Report, table: ReportTable): string {
  const won = (label: string, rows: Report["byAgent"]) =>
    toCsv(
      [label, "won pulls", "won premium"],
      rows.map((r): Cell[] => [r.label, r.count, centsToDollars(r.cents)]),
    );
  switch (table) {
    case "byAgent":
      return won("agent", report.byAgent);
    case "byPeriod":
      return won(`${report.period} starting`, report.byPeriod);
    case "byPeriodAgent":
      return toCsv(
        [`${report.period} starting`, "agent", "won pulls", "won premium"],
        report.byPeriodAgent.map((r): Cell[] => [r.period, r.label, r.count, centsToDollars(r.cents)]),
      );
    case "byCarrier":
      return won("carrier", report.byCarrier);
    case "byLine":
      return won("lines of business", report.byLine);
    case "byLink":
      return won("link", report.byLink);
    case "closeRatio":
      return toCsv(
        ["agent", "won", "lost", "close ratio"],
        report.closeRatio.rows.map((r): Cell[] => [
          r.label,
          r.won,
          r.lost,
          r.ratio === null ? null : r.ratio.toFixed(4),
        ]),
      );
    case "newPulls":
      return toCsv(
        [`${report.period} starting`, "new pulls", "successful", "success share"],
        report.newPulls.map((r): Cell[] => [
          r.period,
          r.count,
          r.successful,
          r.count > 0 ? (r.successful / r.count).toFixed(4) : null,
        ]),
      );
    case "funnel":
      return toCsv(
        ["step", "pulls", "share of previous step"],
        report.funnel.map((r): Cell[] => [r.label, r.count, r.ofPrevious === null ? null : r.ofPrevious.toFixed(4)]),
      );
    case "recycledWins":
      return toCsv(
        ["by", "group", "came back", "won back", "premium won back"],
        report.recycledWins.map((r): Cell[] => [r.dimension, r.label, r.returned, r.won, centsToDollars(r.cents)]),
      );
    case "sourcesByLink":
      return sourcesCsv(report.sourcesByLink, "link");
    case "sourcesByAgent":
      return sourcesCsv(report.sourcesByAgent, "agent");
  }
}

/** How many data rows `reportCsv` writes for the table (the audit trail records it). */
export function reportTableRowCount(report: Report, table: ReportTable): number {
  return table === "closeRatio" ? report.closeRatio.rows.length : report[table].length;
}
