import { describe, expect, it } from "vitest";
import { addMonths, daysAway, deriveXDate, rollForward } from "./derive";

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
