import { niceCeiling, placeLabels } from "./chart-scale";

// A small line over time, drawn on the server as SVG: no script, and the table beside it
// carries the same numbers for anyone who cannot see the chart. Sized like the bar charts
// (./stacked-bar-chart.tsx): a phone-wide viewBox, period labels thinned out when they would
// touch.

const WIDTH = 320;
const HEIGHT = 150;
const TOP = 16;
const BOTTOM = 20;
const SIDE = 8;
const FONT = 10;
const BASE = HEIGHT - BOTTOM;

export function LineChart({
  summary,
  points,
  format,
  testId,
}: {
  /** The chart's accessible name: what it shows, in a sentence or two. */
  summary: string;
  /** `x` as people read it ("Aug 2026"), in order. */
  points: Array<{ x: string; y: number }>;
  format: (y: number) => string;
  testId?: string;
}) {
  if (points.length === 0) return null;
  const top = niceCeiling(Math.max(0, ...points.map((p) => p.y)));
  const step = points.length > 1 ? (WIDTH - 2 * SIDE) / (points.length - 1) : 0;
  const xy = points.map((p, i) => ({
    x: points.length > 1 ? SIDE + i * step : WIDTH / 2,
    y: BASE - (p.y / top) * (BASE - TOP),
    p,
  }));
  const labelX = placeLabels(
    xy.map((c) => c.x),
    points.map((p) => p.x),
    FONT,
    WIDTH,
  );
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={summary}
      className="h-auto w-full max-w-md"
      data-testid={testId}
    >
      <line x1={0} x2={WIDTH} y1={TOP} y2={TOP} className="stroke-slate-200" strokeDasharray="3 3" />
      <text x={2} y={TOP - 3} className="fill-slate-600 text-[10px]">
        {format(top)}
      </text>
      <line x1={0} y1={BASE} x2={WIDTH} y2={BASE} className="stroke-slate-400" />
      <polyline
        points={xy.map((c) => `${c.x},${c.y}`).join(" ")}
        fill="none"
        className="stroke-brand-600"
        strokeWidth={2}
      />
      {xy.map((c, i) => (
        <g key={c.p.x}>
          <circle cx={c.x} cy={c.y} r={points.length > 40 ? 1.5 : 3} className="fill-brand-700">
            <title>{`${c.p.x}: ${format(c.p.y)}`}</title>
          </circle>
          {labelX[i] !== null && labelX[i] !== undefined ? (
            <text x={labelX[i]} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-600 text-[10px]">
              {c.p.x}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
