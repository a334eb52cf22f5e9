import { describe, expect, it } from "vitest";
import { nextPeriod, periodEnd, periodSlots, periodStart } from "./periods";

describe("report periods", () => {
  it("starts weeks on Monday, months on the first, quarters in January, April, July and October", () => {
    expect(periodStart("week", "2026-08-09")).toBe("2026-08-03"); // a Sunday
    expect(periodStart("week", "2026-08-03")).toBe("2026-08-03");
    expect(periodStart("month", "2026-08-31")).toBe("2026-08-01");
    expect(periodStart("quarter", "2026-09-30")).toBe("2026-07-01");
    expect(periodStart("quarter", "2026-01-01")).toBe("2026-01-01");
  });

  it("ends a period the day before the next one starts, across years and leap days", () => {
    expect(periodEnd("week", "2026-12-28")).toBe("2027-01-03");
    expect(periodEnd("month", "2028-02-01")).toBe("2028-02-29");
    expect(periodEnd("quarter", "2026-10-01")).toBe("2026-12-31");
    expect(nextPeriod("quarter", "2026-10-01")).toBe("2027-01-01");
    expect(nextPeriod("month", "2026-01-01")).toBe("2026-02-01");
  });

  it("gives a slot to every period from the filter's dates or the data's, empty ones included", () => {
    expect(periodSlots("month", ["2026-05-01", "2026-02-01"])).toEqual([
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
    ]);
    expect(periodSlots("quarter", ["2026-04-01"], "2026-01-15", "2026-08-14")).toEqual([
      "2026-01-01",
      "2026-04-01",
      "2026-07-01",
    ]);
    expect(periodSlots("week", [], "2026-08-05", "2026-08-14")).toEqual(["2026-08-03", "2026-08-10"]);
    expect(periodSlots("month", [])).toEqual([]);
  });

  it("keeps to the data when the filter's range would be too many bars to draw", () => {
    expect(periodSlots("week", ["2026-08-03", "2026-08-17"], "2000-01-01")).toEqual([
      "2026-08-03",
      "2026-08-10",
      "2026-08-17",
    ]);
    expect(periodSlots("week", ["1990-01-01", "2026-08-03"])).toEqual(["1990-01-01", "2026-08-03"]);
  });
});
