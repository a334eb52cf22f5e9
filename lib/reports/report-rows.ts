// The rows the reports are made of, whether summed from the rollups (./queries.ts) or computed
// from the pulls (./queries-from-pulls.ts): no database here, so components may import them.

export type Row = { key: string; label: string; count: number; cents: number };
export type RatioRow = { key: string; label: string; won: number; lost: number; ratio: number | null };
export type PeriodRow = { period: string; count: number; successful: number };
/** Won premium of one agent in one period (`period` is the period's first day, `agent` the user id or ""). */
export type PeriodAgentRow = { period: string; agent: string; label: string; count: number; cents: number };

export type LostRow = {
  /** reason: the form's category (null: not said); carrier: who won it (null: unknown); agent: whose loss. */
  dimension: "reason" | "carrier" | "agent";
  key: string | null;
  label: string | null;
  count: number;
  /** The premiums lost deals were won at elsewhere, where the agent knew it; and how many knew. */
  lostToCents: number;
  priced: number;
};

export type CloseRatio = { rows: RatioRow[]; won: number; lost: number; ratio: number | null };

/** The close ratio per owner and in all, from each owner's wins and losses. */
export function closeRatioOf(
  owners: Array<{ key: string | null; label: string | null; won: number; lost: number }>,
): CloseRatio {
  const rows: RatioRow[] = owners.map((r) => ({
    key: r.key ?? "",
    label: r.label ?? "No one",
    won: Number(r.won),
    lost: Number(r.lost),
    ratio: Number(r.won) + Number(r.lost) > 0 ? Number(r.won) / (Number(r.won) + Number(r.lost)) : null,
  }));
  const won = rows.reduce((a, r) => a + r.won, 0);
  const lost = rows.reduce((a, r) => a + r.lost, 0);
  return { rows, won, lost, ratio: won + lost > 0 ? won / (won + lost) : null };
}

/** The six ways won premium is grouped: what a row of the one pass over the won figures is by. */
export type WonDimension = "agent" | "period" | "periodAgent" | "carrier" | "line" | "link";
export type WonDimensionRow = {
  dimension: string;
  key: string | null;
  label: string | null;
  count: number;
  cents: number;
  /** The agent of a periodAgent row (its key is the period). */
  agent: string | null;
};

/** The won figures by agent, period, period and agent, carrier, line and link, from the rows of one pass. */
export function wonFiguresOf(rows: WonDimensionRow[]) {
  const by = (dimension: WonDimension): Row[] =>
    rows
      .filter((r) => r.dimension === dimension)
      .map((r) => ({ key: r.key ?? "", label: r.label ?? "", count: Number(r.count), cents: Number(r.cents) }));
  const byPeriodAgent = rows
    .filter((r) => r.dimension === "periodAgent")
    .map((r): PeriodAgentRow => ({
      period: r.key ?? "",
      agent: r.agent ?? "",
      label: r.label ?? "",
      count: Number(r.count),
      cents: Number(r.cents),
    }))
    .sort((a, b) => a.period.localeCompare(b.period) || b.cents - a.cents || a.label.localeCompare(b.label));
  return {
    byAgent: by("agent"),
    byPeriod: by("period"),
    byPeriodAgent,
    byCarrier: by("carrier"),
    byLine: by("line"),
    byLink: by("link"),
  };
}

/** The lost-deal rows as one pass over the losses returns them, its sums as numbers. */
export function lostRowsOf(
  rows: Array<{
    dimension: LostRow["dimension"];
    key: string | null;
    label: string | null;
    count: number;
    /** A sum of bigints comes back as text from PostgreSQL. */
    lost_to_cents: number | string | null;
    priced: number;
  }>,
): LostRow[] {
  return rows.map((r) => ({
    dimension: r.dimension,
    key: r.key,
    label: r.label,
    count: Number(r.count),
    lostToCents: Number(r.lost_to_cents ?? 0),
    priced: Number(r.priced),
  }));
}
