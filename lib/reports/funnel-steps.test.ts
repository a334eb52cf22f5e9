import { describe, expect, it } from "vitest";
import { funnelSteps } from "./funnel-steps";

describe("funnelSteps", () => {
  it("gives each step its count and its share of the step before", () => {
    const steps = funnelSteps({ linked: 200, successful: 150, assigned: 120, worked: 60, won: 15 });
    expect(steps.map((s) => [s.key, s.count, s.ofPrevious])).toEqual([
      ["linked", 200, null],
      ["successful", 150, 0.75],
      ["assigned", 120, 0.8],
      ["worked", 60, 0.5],
      ["won", 15, 0.25],
    ]);
    expect(steps.map((s) => s.label)).toEqual([
      "Linked",
      "Linked successfully",
      "Assigned",
      "Worked (won or lost)",
      "Won",
    ]);
  });

  it("has no share after a step of zero rather than dividing by it", () => {
    const steps = funnelSteps({ linked: 3, successful: 0, assigned: 0, worked: 0, won: 0 });
    expect(steps.map((s) => s.ofPrevious)).toEqual([null, 0, null, null, null]);
    expect(funnelSteps({ linked: 0, successful: 0, assigned: 0, worked: 0, won: 0 }).every((s) => s.count === 0)).toBe(
      true,
    );
  });
});
