import { centsToDollars, toCsv, type Cell } from "@/lib/csv/to-csv";
import type { SourceRow } from "./sources";

// The per-link and per-agent tables (./sources.ts) as CSV: money as exact decimal dollars,
// ratios as fractions and the medians in minutes, numbers a spreadsheet can sort and sum
// (the page says "12 min", "3 h", "2 days").

const minutes = (ms: number | null) => (ms === null ? null : (ms / 60_000).toFixed(1));

export function sourcesCsv(rows: SourceRow[], by: "link" | "agent"): string {
  const head = by === "link" ? ["link", "public alias", "widget id"] : ["agent"];
  return toCsv(
    [
      ...head,
      "arrived",
      "completed",
      "assigned",
      "won",
      "lost",
      "won premium",
      "close ratio",
      "median minutes to first touch",
      "median minutes to won",
      "recycled wins",
    ],
    rows.map((r): Cell[] => [
      ...(by === "link" ? [r.label, r.alias, r.widgetId] : [r.label]),
      r.arrived,
      r.completed,
      r.assigned,
      r.won,
      r.lost,
      centsToDollars(r.wonCents),
      r.closeRatio === null ? null : r.closeRatio.toFixed(4),
      minutes(r.medianToFirstTouchMs),
      minutes(r.medianToWonMs),
      r.recycledWins,
    ]),
  );
}
