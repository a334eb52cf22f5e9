import { describe, expect, it } from "vitest";
import { nextRetryDelayMs, rateLimitDelayMs } from "./retry-policy";

describe("the wait after a 429", () => {
  it("is what Retry-After says, up to six hours", () => {
    expect(rateLimitDelayMs(40_000, 1)).toBe(40_000);
    expect(rateLimitDelayMs(0, 5)).toBe(0);
    expect(rateLimitDelayMs(30 * 24 * 3_600_000, 1)).toBe(6 * 3_600_000);
  });

  it("backs off with jitter, longer with each limited cycle in a row, when the service gives no time", () => {
    expect(rateLimitDelayMs(null, 1, () => 0)).toBe(1_000);
    expect(rateLimitDelayMs(null, 1, () => 1)).toBe(2_000);
    expect(rateLimitDelayMs(null, 4, () => 1)).toBe(16_000);
    expect(rateLimitDelayMs(null, 40, () => 1)).toBe(nextRetryDelayMs(40, () => 1));
    expect(rateLimitDelayMs(null, 40, () => 1)).toBe(15 * 60_000);
  });
});
