// The arithmetic of the reports' SVG charts, kept apart from the markup so it can be tested:
// a round top for the value axis, how wide a label is, which labels fit.

/** The smallest round number (1, 2, 2.5 or 5 times a power of ten) at or above `max`; 1 for nothing. */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max * (1 - 1e-12)) return step * power;
  return 10 * power;
}

/**
 * A label's width in SVG units, generously: system sans-serif glyphs average about 0.55 em, so
 * 0.6 em per character rarely underestimates and labels thinned by it do not touch.
 */
export function textWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.6;
}

/**
 * Every how many slots a label can be drawn without overlapping the next, given `slot` units per
 * bar: 1 when every label fits, 2 to show every other one, and so on. The widest label decides,
 * so the spacing is even.
 */
export function labelStep(labels: string[], slot: number, fontSize: number, gap = 6): number {
  if (labels.length === 0 || !(slot > 0)) return 1;
  const widest = Math.max(...labels.map((label) => textWidth(label, fontSize)));
  return Math.max(1, Math.ceil((widest + gap) / slot));
}

/** Whether the label at `index` is drawn: every `step`-th one, from the first. */
export const labelShown = (index: number, step: number) => index % step === 0;

/** The centre of a label `width` wide at `x`, moved in so it stays within [min, max]. */
export function keepInside(x: number, width: number, min: number, max: number): number {
  return Math.min(Math.max(x, min + width / 2), max - width / 2);
}

/** `text` cut with an ellipsis to fit `width` units (a long agent name beside its figure). */
export function fitText(text: string, width: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= width) return text;
  const chars = Math.max(1, Math.floor(width / (fontSize * 0.6)) - 1);
  return `${text.slice(0, chars).trimEnd()}…`;
}

/**
 * Where each axis label is drawn, or null where it is left out: every `labelStep`-th label at
 * its bar's centre, moved in at the chart's edges, and any that would then touch the label
 * before it dropped. So labels never overlap, however many bars there are. Which bar starts
 * the sequence is chosen to fit the most labels (a first label pushed in from the edge can
 * crowd out the next one).
 */
export function placeLabels(
  centres: number[],
  labels: string[],
  fontSize: number,
  width: number,
  gap = 6,
): Array<number | null> {
  const slot = centres.length > 1 ? (centres[1] ?? 0) - (centres[0] ?? 0) : width;
  const step = labelStep(labels, slot, fontSize, gap);
  const from = (first: number) => {
    let end = -Infinity;
    return centres.map((centre, i) => {
      if (i < first || !labelShown(i - first, step)) return null;
      const size = textWidth(labels[i] ?? "", fontSize);
      const x = keepInside(centre, size, 0, width);
      if (x - size / 2 < end + gap) return null;
      end = x + size / 2;
      return x;
    });
  };
  const shown = (xs: Array<number | null>) => xs.filter((x) => x !== null).length;
  let best = from(0);
  for (let first = 1; first < Math.min(step, centres.length); first += 1) {
    const placed = from(first);
    if (shown(placed) > shown(best)) best = placed;
  }
  return best;
}
