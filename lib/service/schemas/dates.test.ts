import { afterEach, describe, expect, it } from "vitest";
import { calendarDate, isIsoDate } from "./dates";
import { acceptedPull, kindsAt, only } from "./test-support";

// Policy dates are calendar days. They are kept as the strings the service wrote and their day
// is read from that text, so a reader west of UTC never sees an expiry one day early.

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe("isIsoDate", () => {
  it("accepts dates and date-times with or without offsets and fractions", () => {
    for (const value of [
      "2026-03-01",
      "2022-12-13T06:00:00.000Z",
      "2026-03-01T23:30:00-05:00",
      "2026-03-01T23:30",
      "2024-02-29T12:00:00+0530",
    ]) {
      expect(isIsoDate(value)).toBe(true);
    }
  });

  it("rejects impossible days and other formats", () => {
    for (const value of [
      "2026-02-29",
      "2026-13-01",
      "2026-04-31",
      "03/01/2026",
      "20260301",
      "2026-03-01T24:00:00Z",
      "",
      "2026-03-01 garbage",
    ]) {
      expect(isIsoDate(value)).toBe(false);
    }
  });
});

describe("calendarDate", () => {
  it("is the day as written, whatever the offset", () => {
    expect(calendarDate("2026-03-01T23:30:00-05:00")).toBe("2026-03-01");
    expect(calendarDate("2026-03-01T00:30:00+14:00")).toBe("2026-03-01");
    expect(calendarDate("2022-12-13T06:00:00.000Z")).toBe("2022-12-13");
    expect(calendarDate("2026-03-01")).toBe("2026-03-01");
  });

  it("is null for null and non-dates", () => {
    expect(calendarDate(null)).toBeNull();
    expect(calendarDate(undefined)).toBeNull();
    expect(calendarDate("soon")).toBeNull();
  });

  it("does not depend on the process time zone", () => {
    const days: string[] = [];
    for (const tz of ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      process.env.TZ = tz;
      const { pull } = acceptedPull({
        policies: [{ policy_id: "p-1", effective_date: "2026-03-01", expiry_date: "2027-03-01T00:00:00.000Z" }],
      });
      const policy = only(pull.policies);
      days.push(`${calendarDate(policy.effective_date)}/${calendarDate(policy.expiry_date)}`);
    }
    expect(new Set(days)).toEqual(new Set(["2026-03-01/2027-03-01"]));
  });
});

describe("date fields in a pull", () => {
  it("keep the string exactly as written", () => {
    const written = {
      effective_date: "2022-12-13T06:00:00.000Z",
      expiry_date: "2023-12-13",
      renewal_date: "2023-12-13T00:00:00-06:00",
    };
    const policy = only(acceptedPull({ policies: [{ policy_id: "p-1", ...written }] }).pull.policies);
    expect(policy).toMatchObject(written);
  });

  it("read a non-date as null and report it, without losing the pull", () => {
    const { pull, problems } = acceptedPull({
      created_at: "yesterday",
      policies: [{ policy_id: "p-1", expiry_date: "12/13/2023" }],
    });
    expect(pull.created_at).toBeNull();
    expect(only(pull.policies).expiry_date).toBeNull();
    expect(kindsAt(problems, "created_at")).toEqual(["wrong_type"]);
    expect(kindsAt(problems, "policies[0].expiry_date")).toEqual(["wrong_type"]);
  });

  it("leave free-text dates such as date_of_birth_str as text", () => {
    expect(
      only(acceptedPull({ drivers: [{ driver_id: "d-1", date_of_birth_str: "05/03/1987" }] }).pull.drivers)
        .date_of_birth_str,
    ).toBe("05/03/1987");
  });
});
