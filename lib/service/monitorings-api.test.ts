import { describe, expect, it } from "vitest";
import {
  enableMonitoringSchema,
  intervalDays,
  monitoringIntervalSchema,
  updateMonitoringSchema,
} from "./monitorings-api";

// Monitoring input is checked before any call: the service's 30-day minimum, ISO durations.

describe("monitoring input", () => {
  it("accepts ISO durations of at least 30 days", () => {
    for (const ok of ["P30D", "P1M", "P45D", "P1Y", "P1Y6M"])
      expect(monitoringIntervalSchema.safeParse(ok).success).toBe(true);
    expect(intervalDays("P1Y2M3D")).toBe(365 + 60 + 3);
  });

  it("refuses shorter, empty, time-based and malformed intervals with a reason", () => {
    for (const bad of ["P29D", "P", "PT720H", "1 month", "P1W", ""]) {
      const result = monitoringIntervalSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
    }
    expect(monitoringIntervalSchema.safeParse("P7D").error?.issues[0]?.message).toMatch(/30 days/);
  });

  it("needs a pull id and an interval to enable, and something to change to update", () => {
    expect(enableMonitoringSchema.safeParse({ pull_id: "not-a-uuid", interval: "P1M" }).success).toBe(false);
    expect(
      enableMonitoringSchema.safeParse({
        pull_id: "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01",
        interval: "P1M",
        next_pull_date: "tomorrow",
      }).success,
    ).toBe(false);
    expect(
      enableMonitoringSchema.safeParse({ pull_id: "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01", interval: "P1M" }).success,
    ).toBe(true);
    expect(updateMonitoringSchema.safeParse({}).success).toBe(false);
    expect(updateMonitoringSchema.safeParse({ status: "PAUSED" }).success).toBe(false);
  });
});
