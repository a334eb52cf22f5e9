import { describe, expect, it } from "vitest";
import { DASH, formatCalendarDate, formatCents, formatLimit, formatPercent, fullName, humanize, text, yesNo } from "./format";

describe("format", () => {
  it("shows money from integer cents, and null as a dash", () => {
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(formatCents(1)).toBe("$0.01");
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(null)).toBe(DASH);
  });

  it("shows limits in whole dollars unless they carry cents", () => {
    expect(formatLimit(2_500_000)).toBe("$25,000");
    expect(formatLimit(12_345)).toBe("$123.45");
    expect(formatLimit(null)).toBe(DASH);
  });

  it("reads the service's percent strings without trailing zeros, and keeps odd ones as they came", () => {
    expect(formatPercent("10.000")).toBe("10%");
    expect(formatPercent("2.500")).toBe("2.5%");
    expect(formatPercent("n/a")).toBe("n/a");
    expect(formatPercent(null)).toBe(DASH);
  });

  it("keeps calendar dates on the day written, whatever the zone", () => {
    expect(formatCalendarDate("2026-03-01T00:00:00Z")).toBe("Mar 1, 2026");
    expect(formatCalendarDate("2026-03-01T23:30:00-05:00")).toBe("Mar 1, 2026");
    expect(formatCalendarDate("2026-12-31")).toBe("Dec 31, 2026");
    expect(formatCalendarDate("not a date")).toBe("not a date");
    expect(formatCalendarDate(null)).toBe(DASH);
  });

  it("humanises known enum shapes and shows anything else as it came", () => {
    expect(humanize("PERSONAL_LIABILITY")).toBe("Personal liability");
    expect(humanize("Bodily Injury Liability")).toBe("Bodily Injury Liability");
    expect(humanize(null)).toBe(DASH);
  });

  it("renders nulls as a dash and booleans as words", () => {
    expect(text(null)).toBe(DASH);
    expect(text(0)).toBe("0");
    expect(yesNo(false)).toBe("No");
    expect(yesNo(undefined)).toBe(DASH);
    expect(fullName({ first_name: "Ann", middle_name: null, last_name: "Lee" })).toBe("Ann Lee");
    expect(fullName({})).toBe(DASH);
  });
});
