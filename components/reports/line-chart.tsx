// A small line over time, drawn on the server as SVG: no script, and the table beside it
// carries the same numbers for anyone who cannot see the chart.

export function LineChart({
  label,
  points,
  format,
}: {
  label: string;
  points: Array<{ x: string; y: number }>;
  format: (y: number) => string;
}) {
  if (points.length === 0) return null;
  const width = 480;
  const height = 140;
  const pad = 24;
  const max = Math.max(1, ...points.map((p) => p.y));
  const step = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : 0;
  const xy = points.map((p, i) => ({ x: pad + i * step, y: height - pad - (p.y / max) * (height - 2 * pad), p }));
  const summary = `${label}: ${points.map((p) => `${p.x} ${format(p.y)}`).join(", ")}`;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} className="h-36 w-full">
      <line x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} className="stroke-slate-300" />
      <polyline
        points={xy.map((c) => `${c.x},${c.y}`).join(" ")}
        fill="none"
        className="stroke-brand-600"
        strokeWidth={2}
      />
      {xy.map((c) => (
        <g key={c.p.x}>
          <circle cx={c.x} cy={c.y} r={3} className="fill-brand-700" />
          <text x={c.x} y={height - 6} textAnchor="middle" className="fill-slate-500 text-[9px]">
            {c.p.x.slice(5)}
          </text>
        </g>
      ))}
    </svg>
  );
}
