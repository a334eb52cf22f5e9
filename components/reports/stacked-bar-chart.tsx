import { niceCeiling, placeLabels } from "./chart-scale";
import type { Column } from "./stacked-bars";

// Bars over time, each split into its series, drawn on the server as SVG: no script, no chart
// library (one like recharts would add about 100 kB gzipped to the page's first-load JS, whose
// budget is 150 kB in all). The viewBox is about a phone's width, so at 390 px the text is
// drawn near its own size; on a wide screen the chart is capped (max-w-md) rather than blown up.
// The table beside it carries every figure, for anyone who cannot see the chart.

const WIDTH = 320;
const HEIGHT = 190;
const TOP = 16; // room for the top gridline's label
const BOTTOM = 20; // room for the period labels
const FONT = 10;
const BASE = HEIGHT - BOTTOM;

export function StackedBarChart({
  summary,
  columns,
  axisLabels,
  seriesLabel,
  fillOf,
  format,
  tick,
  testId,
}: {
  /** The chart's accessible name: what it shows, in a sentence or two. */
  summary: string;
  columns: Column[];
  /** One per column, as people read a period ("Aug 2026"). */
  axisLabels: string[];
  seriesLabel: (series: string) => string;
  /** The Tailwind fill class of a series. */
  fillOf: (series: string) => string;
  /** A value as the hover title shows it. */
  format: (value: number) => string;
  /** A gridline's value, at the top and the middle of the axis. */
  tick: (value: number) => string;
  testId?: string;
}) {
  const top = niceCeiling(Math.max(0, ...columns.map((c) => c.total)));
  const y = (value: number) => BASE - (value / top) * (BASE - TOP);
  const slot = WIDTH / Math.max(1, columns.length);
  const bar = Math.min(slot * 0.72, 40);
  const labelX = placeLabels(
    columns.map((_, i) => i * slot + slot / 2),
    columns.map((c, i) => axisLabels[i] ?? c.slot),
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
      {[top, top / 2].map((value) => (
        <g key={value}>
          <line x1={0} x2={WIDTH} y1={y(value)} y2={y(value)} className="stroke-slate-200" strokeDasharray="3 3" />
          {/* A white halo keeps the figure readable where a bar passes behind it. */}
          <text
            x={2}
            y={y(value) - 3}
            className="fill-slate-600 stroke-white text-[10px]"
            strokeWidth={3}
            paintOrder="stroke"
          >
            {tick(value)}
          </text>
        </g>
      ))}
      <line x1={0} x2={WIDTH} y1={BASE} y2={BASE} className="stroke-slate-400" />
      {columns.map((column, i) => {
        const x = i * slot + (slot - bar) / 2;
        const label = axisLabels[i] ?? column.slot;
        const at = labelX[i];
        return (
          <g key={column.slot} data-period={column.slot}>
            {column.segments.map((segment) => (
              <rect
                key={segment.series}
                x={x}
                width={bar}
                y={y(segment.to)}
                height={Math.max(0.5, y(segment.from) - y(segment.to))}
                className={`${fillOf(segment.series)} stroke-white`}
                strokeWidth={bar > 6 ? 0.75 : 0}
              >
                <title>{`${label}, ${seriesLabel(segment.series)}: ${format(segment.to - segment.from)}`}</title>
              </rect>
            ))}
            {at !== null && at !== undefined ? (
              <text x={at} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-600 text-[10px]">
                {label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
