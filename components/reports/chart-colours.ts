// The colours of a chart's series (agents in the won premium chart): Tailwind's own scales, in
// the order of the Okabe–Ito palette (blue, orange, green, vermilion, purple, sky, yellow) so
// that most colour-blind readers can tell them apart. Segments are also parted by a white edge
// and named in the legend and the table beside the chart, so no figure depends on colour alone.
// Class names are written out whole so Tailwind finds them.

export const SERIES_COLOURS = [
  { fill: "fill-brand-700", swatch: "bg-brand-700" },
  { fill: "fill-amber-500", swatch: "bg-amber-500" },
  { fill: "fill-emerald-600", swatch: "bg-emerald-600" },
  { fill: "fill-orange-700", swatch: "bg-orange-700" },
  { fill: "fill-fuchsia-400", swatch: "bg-fuchsia-400" },
  { fill: "fill-sky-400", swatch: "bg-sky-400" },
  { fill: "fill-yellow-300", swatch: "bg-yellow-300" },
  { fill: "fill-slate-400", swatch: "bg-slate-400" },
] as const;

export type SeriesColour = (typeof SERIES_COLOURS)[number];

/** The colour of the series at `index`; the last one (grey) also stands for "Other agents". */
export const seriesColour = (index: number): SeriesColour =>
  SERIES_COLOURS[Math.min(index, SERIES_COLOURS.length - 1)] ?? SERIES_COLOURS[0];
