import { describe, expect, it } from "vitest";
import { fitText, keepInside, labelShown, labelStep, niceCeiling, placeLabels, textWidth } from "./chart-scale";

describe("niceCeiling", () => {
  it("rounds a maximum up to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect([1, 7, 12, 19, 21, 24, 26, 49, 51, 99, 100, 101].map(niceCeiling)).toEqual([
      1, 10, 20, 20, 25, 25, 50, 50, 100, 100, 100, 200,
    ]);
    expect(niceCeiling(184_250_00)).toBe(200_000_00);
    expect(niceCeiling(0.3)).toBe(0.5);
  });

  it("gives 1 for nothing, so an axis never divides by zero", () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(-5)).toBe(1);
    expect(niceCeiling(Number.NaN)).toBe(1);
  });
});

describe("label thinning", () => {
  it("shows every label when each fits its slot", () => {
    expect(labelStep(["Q1 2026", "Q2 2026", "Q3 2026"], 100, 10)).toBe(1);
  });

  it("skips labels so that the widest one and a gap fit", () => {
    // "Aug 3, 2026" is 11 characters: 66 units at 10 units a character's 0.6 em, 72 with the gap.
    const weeks = Array.from({ length: 52 }, () => "Aug 3, 2026");
    const step = labelStep(weeks, 6, 10);
    expect(step).toBe(12);
    const shown = weeks.map((_, i) => labelShown(i, step));
    expect(shown.filter(Boolean)).toHaveLength(5);
    // No two drawn labels are closer than the widest label.
    const centres = shown.flatMap((s, i) => (s ? [i * 6] : []));
    for (let i = 1; i < centres.length; i += 1)
      expect((centres[i] ?? 0) - (centres[i - 1] ?? 0)).toBeGreaterThanOrEqual(textWidth("Aug 3, 2026", 10));
  });

  it("copes with no labels and no room", () => {
    expect(labelStep([], 10, 10)).toBe(1);
    expect(labelStep(["Aug 2026"], 0, 10)).toBe(1);
  });

  it("keeps a label at the edge inside the chart", () => {
    expect(keepInside(2, 40, 0, 320)).toBe(20);
    expect(keepInside(318, 40, 0, 320)).toBe(300);
    expect(keepInside(160, 40, 0, 320)).toBe(160);
  });
});

describe("fitText", () => {
  it("keeps a label that fits and cuts one that does not, with an ellipsis, within the width", () => {
    expect(fitText("Alex Agent", 100, 10)).toBe("Alex Agent");
    const cut = fitText("Christopher Montgomery-Smith of the Northern Office", 120, 10);
    expect(cut.endsWith("…")).toBe(true);
    expect(textWidth(cut, 10)).toBeLessThanOrEqual(120);
  });
});

describe("placeLabels", () => {
  const FONT = 10;
  const overlaps = (xs: Array<number | null>, labels: string[]) => {
    const boxes = xs.flatMap((x, i) =>
      x === null ? [] : [[x - textWidth(labels[i] ?? "", FONT) / 2, x + textWidth(labels[i] ?? "", FONT) / 2]],
    );
    return boxes.some((box, i) => i > 0 && (box[0] ?? 0) < (boxes[i - 1]?.[1] ?? 0));
  };

  it("draws every label of a few wide bars at the bars' centres", () => {
    const labels = ["Q1 2026", "Q2 2026", "Q3 2026", "Q4 2026"];
    expect(placeLabels([40, 120, 200, 280], labels, FONT, 320)).toEqual([40, 120, 200, 280]);
  });

  it("leaves labels out, never overlapping, however many bars, with the edges moved in", () => {
    for (const count of [5, 12, 13, 26, 52, 53, 104, 400]) {
      const slot = 320 / count;
      const centres = Array.from({ length: count }, (_, i) => i * slot + slot / 2);
      const labels = centres.map((_, i) => (i % 2 ? "Aug 3, 2026" : "Dec 28, 2026"));
      const xs = placeLabels(centres, labels, FONT, 320);
      expect(overlaps(xs, labels), `${count} bars`).toBe(false);
      // As many as fit: the widest label and a gap each, less one for the edges.
      const shown = xs.filter((x) => x !== null).length;
      expect(shown, `${count} bars`).toBeGreaterThanOrEqual(Math.min(count, Math.floor(320 / (72 + 6)) - 1));
      for (const [i, x] of xs.entries()) {
        if (x === null) continue;
        const half = textWidth(labels[i] ?? "", FONT) / 2;
        expect(x - half).toBeGreaterThanOrEqual(0);
        expect(x + half).toBeLessThanOrEqual(320);
      }
    }
  });
});
