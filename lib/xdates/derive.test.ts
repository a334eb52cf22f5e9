import { describe, expect, it } from "vitest";
import { addDays, addMonths, daysAway, daysBetween, deriveXDate, rollForward } from "./derive";

// X-dates as an agent reads them: the coming expiry, or the next renewal when it has passed,
// and always an answer in words when there is no date.

const TODAY = "2026-11-26";

describe("deriveXDate", () => {
  it("is the expiry when it is still ahead (today counts)", () => {
    expect(
      deriveXDate({ status: "ACTIVE", effectiveDate: "2026-06-14", expiryDate: "2026-12-14T00:00:00Z" }, TODAY),
    ).toMatchObject({ xDate: "2026-12-14", basis: "EXPIRY", termMonths: 6, reason: null });
    expect(deriveXDate({ status: null, effectiveDate: null, expiryDate: TODAY }, TODAY)).toMatchObject({
      xDate: TODAY,
      basis: "EXPIRY",
      termMonths: null,
    });
  });

  it("rolls a passed six-month expiry forward by six months, past today", () => {
    // A six-month auto that expired in 2023 has renewed every six months since.
    const x = deriveXDate({ status: "ACTIVE", effectiveDate: "2023-02-10", expiryDate: "2023-08-10" }, TODAY);
    expect(x).toMatchObject({ xDate: "2027-02-10", basis: "ROLLED", termMonths: 6, expiryDate: "2023-08-10" });
    expect(x.note).toBe("Next renewal: expired 2023-08-10, renews every 6 months.");
  });

  it("rolls a passed twelve-month expiry forward by years", () => {
    expect(
      deriveXDate({ status: "ACTIVE", effectiveDate: "2022-12-01", expiryDate: "2023-12-01" }, TODAY),
    ).toMatchObject({ xDate: "2026-12-01", basis: "ROLLED", termMonths: 12 });
    // Expired yesterday: the next term's end, a year on.
    expect(
      deriveXDate({ status: "EXPIRED", effectiveDate: "2025-11-25", expiryDate: "2026-11-25" }, TODAY),
    ).toMatchObject({ xDate: "2027-11-25", basis: "ROLLED" });
  });

  it("assumes twelve months only when the term cannot be read, and says it is estimated", () => {
    for (const effectiveDate of [null, "garbage", "2023-07-01" /* 9 days: not a term */]) {
      const x = deriveXDate({ status: "ACTIVE", effectiveDate, expiryDate: "2023-07-10" }, TODAY);
      expect(x).toMatchObject({ xDate: "2027-07-10", basis: "ESTIMATED", termMonths: 12 });
      expect(x.note).toMatch(/term unknown, assumed 12 months/);
    }
  });

  it("gives cancelled, rescinded and quoted policies no X-date, and says why", () => {
    const cancelled = deriveXDate(
      { status: "CANCELLED", effectiveDate: "2026-01-01", expiryDate: "2027-01-01", canceledDate: "2026-05-02" },
      TODAY,
    );
    expect(cancelled).toMatchObject({ xDate: null, basis: null, reason: "CANCELLED" });
    expect(cancelled.note).toBe("Cancelled on 2026-05-02: no renewal to quote against.");
    expect(deriveXDate({ status: "RESCINDED", effectiveDate: null, expiryDate: "2027-01-01" }, TODAY)).toMatchObject({
      xDate: null,
      reason: "RESCINDED",
    });
    expect(deriveXDate({ status: "QUOTE", effectiveDate: null, expiryDate: "2027-01-01" }, TODAY)).toMatchObject({
      xDate: null,
      reason: "QUOTE",
    });
  });

  it("names a missing or malformed expiry as unknown, in words", () => {
    const missing = deriveXDate({ status: "ACTIVE", effectiveDate: "2026-01-01", expiryDate: null }, TODAY);
    expect(missing).toMatchObject({ xDate: null, reason: "NO_EXPIRY" });
    expect(missing.note).toBe("Unknown: the carrier sent no expiry date.");
    for (const bad of ["soon", "2026-02-30", "13/01/2027", 20270101, {}]) {
      const x = deriveXDate({ status: "ACTIVE", effectiveDate: "2026-01-01", expiryDate: bad }, TODAY);
      expect(x).toMatchObject({ xDate: null, reason: "MALFORMED_EXPIRY" });
      expect(x.note).toMatch(/^Unknown: the expiry date the carrier sent \(.+\) is not a date\.$/);
      expect(x.note).not.toMatch(/Invalid Date|NaN|undefined/);
    }
  });

  it("falls back to the renewal date when the expiry is missing", () => {
    expect(
      deriveXDate({ status: "ACTIVE", effectiveDate: null, expiryDate: null, renewalDate: "2027-03-14" }, TODAY),
    ).toMatchObject({ xDate: "2027-03-14", basis: "RENEWAL" });
  });
});

describe("month ends and leap days", () => {
  it("clamps to the end of shorter months", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonths("2026-08-31", 6)).toBe("2027-02-28");
    expect(addMonths("2026-12-15", 1)).toBe("2027-01-15");
  });

  it("rolls a leap day to Feb 28 and back to Feb 29 in leap years, without drifting", () => {
    expect(rollForward("2024-02-29", 12, "2025-01-01")).toBe("2025-02-28");
    expect(rollForward("2024-02-29", 12, "2028-01-01")).toBe("2028-02-29");
    // Always from the anchor: Aug 31 + 6 + 6 is Aug 31 again, not Aug 28.
    expect(rollForward("2025-08-31", 6, "2026-03-01")).toBe("2026-08-31");
    expect(
      deriveXDate({ status: "ACTIVE", effectiveDate: "2023-02-28", expiryDate: "2024-02-29" }, TODAY),
    ).toMatchObject({ xDate: "2027-02-28", basis: "ROLLED", termMonths: 12 });
  });

  it("is always on or after today, for any anchor and term", () => {
    for (const term of [1, 3, 6, 12, 24]) {
      for (const anchor of ["2020-01-31", "2023-05-15", "2026-11-25", "2024-02-29"]) {
        const next = rollForward(anchor, term, TODAY);
        expect(next >= TODAY).toBe(true);
        expect(addMonths(next, -term) < TODAY || next === addMonths(anchor, term)).toBe(true);
      }
    }
  });
});

describe("daysAway", () => {
  it("says how far in days", () => {
    expect(daysAway("2026-11-26", TODAY)).toBe("today");
    expect(daysAway("2026-11-27", TODAY)).toBe("tomorrow");
    expect(daysAway("2026-12-19", TODAY)).toBe("in 23 days");
    expect(daysAway("2026-11-23", TODAY)).toBe("3 days ago");
    expect(daysAway(null, TODAY)).toBe("no date");
  });
});

// addDays and daysBetween count on day numbers instead of going through Date (the refresh
// forecast calls them some fifty times per monitored account): they must answer as Date does.
describe("day arithmetic, against Date", () => {
  const viaDate = {
    addDays: (iso: string, days: number) =>
      new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10),
    daysBetween: (today: string, date: string) =>
      Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000),
    /** addMonths as it was, with the month's length asked of Date. */
    addMonths: (iso: string, months: number) => {
      const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
      const total = y * 12 + (m - 1) + months;
      const year = Math.floor(total / 12);
      const month0 = total - year * 12;
      const day = Math.min(d, new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate());
      return `${String(year).padStart(4, "0")}-${String(month0 + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    },
  };
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  const pad = (n: number, width: number) => String(n).padStart(width, "0");

  it("agrees on 20,000 random days and steps, month ends, leap days and century years included", () => {
    for (let i = 0; i < 20_000; i++) {
      const year = random() < 0.2 ? pick([1600, 1700, 1900, 2000, 2024, 2100, 2400]) : int(1, 9_998);
      // Days 29 to 31 of every month, which Date.parse rolls into the next month where they do not exist.
      const iso = `${pad(year, 4)}-${pad(int(1, 12), 2)}-${pad(random() < 0.5 ? int(28, 31) : int(1, 31), 2)}`;
      const days = pick([0, 1, -1, 30, -30, 365, -365, 366, 1_461, -146_097, int(-40_000, 40_000)]);
      expect(addDays(iso, days), `${iso} + ${days}`).toBe(viaDate.addDays(iso, days));
      // Results from year 100 on (from 150, at most 600 months back): Date.UTC reads years 0–99
      // as 1900–1999, which addMonths never did.
      const months = pick([0, 1, -1, 6, 12, -12, 18, int(-600, 600)]);
      if (year >= 150) expect(addMonths(iso, months), `${iso} + ${months} months`).toBe(viaDate.addMonths(iso, months));
      const other = viaDate.addDays(iso, int(-3_000, 3_000));
      expect(daysBetween(iso, other), `${iso} → ${other}`).toBe(viaDate.daysBetween(iso, other));
    }
    function pick<T>(values: T[]): T {
      return values[Math.floor(random() * values.length)] as T;
    }
  });

  it("reads odd input as Date does: fractions of a day, impossible days, other shapes", () => {
    expect(addDays("2027-01-31", 0.5)).toBe(viaDate.addDays("2027-01-31", 0.5));
    expect(addDays("2027-02-30", 1)).toBe("2027-03-03"); // Feb 30 is Mar 2, as Date.parse reads it
    expect(() => addDays("+02027-01-01", 1)).toThrow(RangeError); // not a plain day: Date's answer
    expect(() => addDays("2027-02-32", 1)).toThrow(RangeError);
    expect(() => addDays("2027-13-01", 1)).toThrow(RangeError);
    expect(() => addDays("not a day", 1)).toThrow(RangeError);
    expect(addDays("9999-12-31", 1)).toBe(viaDate.addDays("9999-12-31", 1));
    expect(daysBetween("2027-01-01", "garbage")).toBeNaN();
    expect(daysBetween("2027-02-30", "2027-03-02")).toBe(0);
  });
});
