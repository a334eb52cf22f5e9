import { fitText, textWidth } from "./chart-scale";

// One labelled bar a row, drawn on the server as SVG (no script, no chart library): the funnel,
// its bars centred so they narrow step by step, and the close ratio per agent, from the left.
// Each row's name sits above its bar and its figure at the right, so a long name never runs
// into the bar and the chart reads at a phone's width.

const WIDTH = 320;
const ROW = 36;
const FONT = 11;
const BAR = 14;

export type HorizontalBar = {
  key: string;
  label: string;
  /** The bar's length as a share of the full width, 0 to 1. */
  share: number;
  /** The figure at the right: "1,204 · 75%". */
  value: string;
};

export function HorizontalBarChart({
  summary,
  bars,
  centred = false,
  testId,
}: {
  /** The chart's accessible name: every row's figure, in a sentence. */
  summary: string;
  bars: HorizontalBar[];
  /** Bars centred on the axis (a funnel) rather than from the left. */
  centred?: boolean;
  testId?: string;
}) {
  const height = bars.length * ROW + 2;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={summary}
      className="h-auto w-full max-w-md"
      data-testid={testId}
    >
      {bars.map((bar, i) => {
        const top = i * ROW;
        const share = Math.min(1, Math.max(0, bar.share));
        // Something above zero stays visible as a sliver.
        const width = share > 0 ? Math.max(2, share * WIDTH) : 0;
        const room = WIDTH - textWidth(bar.value, FONT) - 8;
        return (
          <g key={bar.key} data-bar={bar.key}>
            <text x={0} y={top + 12} className="fill-slate-700 text-[11px]">
              {fitText(bar.label, room, FONT)}
            </text>
            <text x={WIDTH} y={top + 12} textAnchor="end" className="fill-slate-900 text-[11px] font-medium">
              {bar.value}
            </text>
            {/* A ratio's bar runs along a track of the whole (100%); a funnel's needs none. */}
            {centred ? null : <rect x={0} y={top + 17} width={WIDTH} height={BAR} rx={2} className="fill-slate-100" />}
            {width > 0 ? (
              <rect
                x={centred ? (WIDTH - width) / 2 : 0}
                y={top + 17}
                width={width}
                height={BAR}
                rx={2}
                className="fill-brand-600"
              />
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
