import { describe, expect, it } from "vitest";
import {
  DASH,
  formatAddress,
  formatBytes,
  formatCalendarDate,
  formatCents,
  formatCount,
  formatDuration,
  formatLimit,
  formatInterval,
  formatPercent,
  formatPeriod,
  formatRelative,
  formatTenthsOfCents,
  fullName,
  humanize,
  labelFromKey,
  localeFromAcceptLanguage,
  text,
  yesNo,
} from "./format";

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

  it("shows per-mile rates from tenths of a cent", () => {
    expect(formatTenthsOfCents(35)).toBe("$0.035");
    expect(formatTenthsOfCents(1234)).toBe("$1.234");
    expect(formatTenthsOfCents(null)).toBe(DASH);
  });

  it("groups counts and reads sizes in bytes", () => {
    expect(formatCount(12000)).toBe("12,000");
    expect(formatCount(null)).toBe(DASH);
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(18_000)).toBe("18 kB");
    expect(formatBytes(2_400_000)).toBe("2.4 MB");
    expect(formatBytes(-1)).toBe(DASH);
  });

  it("writes an address on one line, from full_address or from its parts", () => {
    expect(formatAddress({ full_address: "1 Main St, Austin, TX 78701" })).toBe("1 Main St, Austin, TX 78701");
    expect(
      formatAddress({
        number: "12",
        prefix: "N",
        street: "Oak",
        type: "ST",
        sec_unit_type: "Apt",
        sec_unit_num: "3B",
        city: "Austin",
        state: "TX",
        zip: "78701",
      }),
    ).toBe("12 N Oak ST Apt 3B, Austin, TX 78701");
    expect(formatAddress({ full_address: "  ", city: "Austin" })).toBe("Austin");
    expect(formatAddress({})).toBe(DASH);
    expect(formatAddress(null)).toBe(DASH);
  });

  it("labels unpublished fields from their keys", () => {
    expect(labelFromKey("face_amount_cents")).toBe("Face amount");
    expect(labelFromKey("is_exclusion_endorsement")).toBe("Exclusion endorsement");
    expect(labelFromKey("distribution_percent")).toBe("Distribution percent");
    expect(labelFromKey("LienHolderAddress")).toBe("Lien holder address");
  });

  it("reads the viewer's locale from Accept-Language, and falls back on nonsense", () => {
    expect(localeFromAcceptLanguage("fr-CA,fr;q=0.9,en;q=0.8")).toBe("fr-CA");
    expect(localeFromAcceptLanguage("en;q=0.5, de-DE;q=0.9")).toBe("de-DE");
    expect(localeFromAcceptLanguage("*")).toBe("en-US");
    expect(localeFromAcceptLanguage("<script>")).toBe("en-US");
    expect(localeFromAcceptLanguage(null)).toBe("en-US");
    expect(formatCalendarDate("2026-03-01T00:00:00Z", localeFromAcceptLanguage("de-DE"))).toBe("01.03.2026");
  });

  it("writes report periods as people do, and shows an unreadable key as it came", () => {
    expect(formatPeriod("2026-08-01", "month")).toBe("Aug 2026");
    expect(formatPeriod("2026-07-01", "quarter")).toBe("Q3 2026");
    expect(formatPeriod("2026-12-01", "quarter")).toBe("Q4 2026");
    expect(formatPeriod("2026-08-03", "week")).toBe("Week of Aug 3, 2026");
    expect(formatPeriod("2026-08-01", "month", "de-DE")).toBe("Aug. 2026");
    expect(formatPeriod("not a date", "month")).toBe("not a date");
    expect(formatPeriod(null, "month")).toBe(DASH);
  });

  it("says how long ago an instant was, in the largest whole unit", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(formatRelative("2026-11-25T11:59:40Z", now)).toBe("just now");
    expect(formatRelative("2026-11-25T11:55:00Z", now)).toBe("5 minutes ago");
    expect(formatRelative("2026-11-25T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatRelative("2026-11-24T10:00:00Z", now)).toBe("yesterday");
    expect(formatRelative("2026-11-22T12:00:00Z", now)).toBe("3 days ago");
    expect(formatRelative("2026-08-25T12:00:00Z", now)).toBe("3 months ago");
    expect(formatRelative("2024-11-25T12:00:00Z", now)).toBe("2 years ago");
    expect(formatRelative("2026-11-27T12:00:00Z", now)).toBe("in 2 days");
    expect(formatRelative("2026-11-25T11:59:00Z", now)).toBe("1 minute ago");
    expect(formatRelative("garbage", now)).toBe("garbage");
    expect(formatRelative(null, now)).toBe(DASH);
  });

  it("says a monitoring interval in words, and shows one it cannot read as it came", () => {
    expect(formatInterval("P1M")).toBe("month");
    expect(formatInterval("P3M")).toBe("3 months");
    expect(formatInterval("P2W")).toBe("2 weeks");
    expect(formatInterval("P1Y")).toBe("year");
    expect(formatInterval("PT12H")).toBe("PT12H");
    expect(formatInterval(null)).toBe(DASH);
  });

  it("says how long something took in its largest sensible unit", () => {
    expect(formatDuration(12 * 60_000)).toBe("12 min");
    expect(formatDuration(90 * 60_000)).toBe("90 min");
    expect(formatDuration(3 * 3_600_000)).toBe("3 h");
    expect(formatDuration(47 * 3_600_000)).toBe("47 h");
    expect(formatDuration(2 * 86_400_000)).toBe("2 days");
    expect(formatDuration(20_000)).toBe("< 1 min");
    expect(formatDuration(-5_000)).toBe("< 1 min");
    expect(formatDuration(42 * 60_000, "long")).toBe("42 minutes");
    expect(formatDuration(60_000, "long")).toBe("1 minute");
    expect(formatDuration(3 * 3_600_000, "long")).toBe("3 hours");
    expect(formatDuration(86_400_000 * 3.4, "long")).toBe("3 days");
    expect(formatDuration(null)).toBe(DASH);
    expect(formatDuration(Number.NaN)).toBe(DASH);
  });
});
