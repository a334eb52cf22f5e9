import { describe, expect, it } from "vitest";
import { intervalDays } from "@/lib/service/monitorings-api";
import { addDays, addMonths } from "@/lib/xdates/derive";
import { forecastRefreshes, planRefresh, refreshAt, renewalsFrom, type Renewal } from "./refresh-plan";
import { nextRefreshWhy } from "./refresh-words";

// Refreshes timed to the renewal: the lead time before each X-date, once per renewal offer.

const auto: Renewal = { xDate: "2027-03-14", termMonths: 6, carrier: "Progressive", line: "AUTO" };
const home: Renewal = { xDate: "2027-06-01", termMonths: 12, carrier: "State Farm", line: "HOMEOWNERS" };
const base = { leadTimeDays: 45, interval: "P1M" };

describe("planning the next refresh", () => {
  it("refreshes the lead time before the next X-date", () => {
    expect(planRefresh({ ...base, renewals: [auto, home], lastRefreshDay: "2026-11-20", today: "2026-11-26" })).toEqual(
      {
        day: "2027-01-28",
        reason: { kind: "ON_TIME", xDate: "2027-03-14", carrier: "Progressive", line: "AUTO", leadTimeDays: 45 },
      },
    );
  });

  it("moves on to the next renewal once a refresh inside the lead window has seen the offer", () => {
    const plan = planRefresh({ ...base, renewals: [auto, home], lastRefreshDay: "2027-01-28", today: "2027-01-29" });
    expect(plan).toMatchObject({ day: "2027-04-17", reason: { xDate: "2027-06-01", line: "HOMEOWNERS" } });
    // And after the home's window, the auto's next six-month term.
    expect(
      planRefresh({ ...base, renewals: [auto, home], lastRefreshDay: "2027-04-17", today: "2027-04-18" }),
    ).toMatchObject({ day: "2027-07-31", reason: { xDate: "2027-09-14", line: "AUTO" } });
  });

  it("catches up tomorrow when the window is open and no refresh has seen it", () => {
    expect(planRefresh({ ...base, renewals: [auto], lastRefreshDay: "2026-12-01", today: "2027-02-20" })).toMatchObject(
      { day: "2027-02-21", reason: { kind: "CATCH_UP", xDate: "2027-03-14" } },
    );
    // A pull never refreshed (no day known) is caught up too.
    expect(planRefresh({ ...base, renewals: [auto], lastRefreshDay: null, today: "2027-03-01" }).day).toBe(
      "2027-03-02",
    );
  });

  it("follows the lead time the agency set", () => {
    const plan = planRefresh({
      ...base,
      leadTimeDays: 30,
      renewals: [auto],
      lastRefreshDay: null,
      today: "2026-11-26",
    });
    expect(plan.day).toBe("2027-02-12");
  });

  it("never plans sooner than 30 days after the latest pull, and says which day the renewal asked for", () => {
    // The lead window opens 10 days after the latest pull: held to 30 days after it.
    const renewal: Renewal = { xDate: "2027-03-12", termMonths: 12, carrier: "Progressive", line: "AUTO" };
    const plan = planRefresh({ ...base, renewals: [renewal], lastRefreshDay: "2027-01-16", today: "2027-01-20" });
    expect(plan).toEqual({
      day: "2027-02-15",
      reason: {
        kind: "ON_TIME",
        xDate: "2027-03-12",
        carrier: "Progressive",
        line: "AUTO",
        leadTimeDays: 45,
        heldFrom: "2027-01-26",
      },
    });
    // A renewal itself 10 days after the latest pull, its short lead window open and unseen: not tomorrow.
    const close: Renewal = { ...renewal, xDate: "2027-01-26" };
    expect(
      planRefresh({ ...base, leadTimeDays: 5, renewals: [close], lastRefreshDay: "2027-01-16", today: "2027-01-22" }),
    ).toMatchObject({ day: "2027-02-15", reason: { kind: "CATCH_UP", xDate: "2027-01-26", heldFrom: "2027-01-23" } });
    // 30 days or more after the latest pull: as the renewal asks, with no hold.
    const later = planRefresh({ ...base, renewals: [renewal], lastRefreshDay: "2026-12-27", today: "2027-01-20" });
    expect(later.day).toBe("2027-01-26");
    expect(later.reason).not.toHaveProperty("heldFrom");
  });

  it("asks for the held day no sooner than 30 days to the minute after the latest pull", () => {
    const latest = new Date("2027-01-16T21:30:00Z");
    expect(refreshAt("2027-02-15", latest).toISOString()).toBe("2027-02-15T21:30:00.000Z");
    expect(refreshAt("2027-02-15", new Date("2027-01-16T01:00:00Z")).toISOString()).toBe("2027-02-15T06:00:00.000Z");
    expect(refreshAt("2027-03-01", latest).toISOString()).toBe("2027-03-01T06:00:00.000Z");
    expect(refreshAt("2027-03-01", null).toISOString()).toBe("2027-03-01T06:00:00.000Z");
  });

  it("leaves the service's interval in charge when there is no X-date", () => {
    expect(planRefresh({ ...base, renewals: [], lastRefreshDay: "2026-11-20", today: "2026-11-26" })).toEqual({
      day: null,
      reason: { kind: "INTERVAL", interval: "P1M" },
    });
  });

  it("rolls terms from the X-date without drifting at month ends, and treats an unknown term as a year", () => {
    const endOfMonth: Renewal = { xDate: "2027-01-31", termMonths: 1, carrier: null, line: null };
    expect(
      renewalsFrom([endOfMonth], "2027-01-01")
        .slice(0, 4)
        .map((r) => r.on),
    ).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
    const unknownTerm: Renewal = { xDate: "2027-05-05", termMonths: null, carrier: null, line: null };
    expect(renewalsFrom([unknownTerm], "2027-01-01").map((r) => r.on)).toEqual(["2027-05-05", "2028-05-05"]);
  });
});

describe("forecasting a year of refreshes", () => {
  it("counts the timed refreshes against the fixed interval", () => {
    const forecast = forecastRefreshes({
      ...base,
      renewals: [auto, home],
      lastRefreshDay: "2026-11-20",
      today: "2026-11-26",
      months: 12,
    });
    expect(forecast.timed).toEqual(["2027-01-28", "2027-04-17", "2027-07-31"]);
    expect(forecast.held).toBe(0);
    expect(forecast.fixed).toHaveLength(12); // every 30 days from Dec 20 (a month after the last) to Nov 26
    expect(forecast.fixed[0]).toBe("2026-12-20");
  });

  it("spaces timed refreshes 30 days apart at least, and counts the ones it held", () => {
    // Two renewals 12 days apart: the second's window opens 12 days after the first's refresh.
    const near: Renewal = { xDate: "2027-03-26", termMonths: 12, carrier: "State Farm", line: "HOMEOWNERS" };
    const forecast = forecastRefreshes({
      ...base,
      renewals: [auto, near],
      lastRefreshDay: "2026-11-20",
      today: "2026-11-26",
      months: 6,
    });
    expect(forecast.timed).toEqual(["2027-01-28", "2027-02-27"]);
    expect(forecast.held).toBe(1);
    for (let i = 1; i < forecast.timed.length; i++)
      expect(addDays(forecast.timed[i - 1] ?? "", 30) <= (forecast.timed[i] ?? "")).toBe(true);
  });

  it("keeps the interval's refreshes for an account without X-dates, and none without an interval", () => {
    const noXDate = { ...base, renewals: [], lastRefreshDay: "2026-09-02", today: "2026-11-26", months: 3 };
    // Every 30 days since Sep 2: Oct 2 and Nov 1 have passed, Dec 1 is next.
    expect(forecastRefreshes(noXDate).timed).toEqual(["2026-12-01", "2026-12-31", "2027-01-30"]);
    expect(forecastRefreshes({ ...noXDate, lastRefreshDay: null }).timed[0]).toBe("2026-11-26");
    expect(forecastRefreshes({ ...noXDate, interval: null })).toEqual({ timed: [], fixed: [], held: 0 });
  });

  // The forecast rolls an account's renewals out once instead of once per refresh: it must plan
  // exactly as planning each refresh afresh does, month ends, long terms and open windows included.
  it("plans each refresh as planRefresh would, for a thousand random accounts", () => {
    let seed = 19;
    const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)] as T;
    const day = (from: string, span: number) => addDays(from, Math.floor(random() * span));
    for (let account = 0; account < 1_000; account++) {
      const today = day("2026-01-01", 700);
      const renewals: Renewal[] = Array.from({ length: Math.floor(random() * 4) }, () => ({
        xDate: pick([day(today, 900), day("2024-01-29", 60).slice(0, 8) + pick(["28", "29", "30", "31"])]),
        termMonths: pick([null, 0, 1, 6, 12, 12, 36]),
        carrier: "Carrier",
        line: "AUTO",
      })).filter((r) => !Number.isNaN(Date.parse(r.xDate)));
      const input = {
        renewals,
        lastRefreshDay: pick([null, day(addDays(today, -400), 400)]),
        today,
        leadTimeDays: pick([0, 1, 30, 45, 120]),
        interval: pick([null, "P1M", "P3M"]),
        months: pick([1, 12, 18]),
      };
      const expected: string[] = [];
      let timedOut = false;
      for (let at = today, last = input.lastRefreshDay; ;) {
        const plan = planRefresh({ ...input, today: at, lastRefreshDay: last });
        if (plan.day === null) {
          timedOut = true;
          break;
        }
        if (plan.day >= addMonths(today, input.months)) break;
        expected.push(plan.day);
        at = last = plan.day;
      }
      // The service's own interval: every step since the last refresh, from today on.
      const fixed: string[] = [];
      const step = input.interval ? intervalDays(input.interval) : 0;
      if (step >= 30) {
        let at = input.lastRefreshDay ? addDays(input.lastRefreshDay, step) : today;
        while (at < today) at = addDays(at, step);
        for (; at < addMonths(today, input.months); at = addDays(at, step)) fixed.push(at);
      }
      const forecast = forecastRefreshes(input);
      expect(forecast.fixed, JSON.stringify(input)).toEqual(fixed);
      expect(forecast.timed, JSON.stringify(input)).toEqual(timedOut ? fixed : expected);
    }
  });
});

describe("the next refresh in words", () => {
  const reason = { xDate: "2027-03-14", carrier: "Progressive", line: "AUTO", leadTimeDays: 45 };
  it("names the X-date and the lead time", () => {
    expect(nextRefreshWhy({ reason: { kind: "ON_TIME", ...reason }, error: null, interval: "P1M" })).toBe(
      "45 days before the Progressive auto X-date (Mar 14, 2027), so the carrier's renewal offer is in it.",
    );
    expect(nextRefreshWhy({ reason: { kind: "CATCH_UP", ...reason }, error: null, interval: "P1M" })).toBe(
      "The Progressive auto X-date (Mar 14, 2027) is less than 45 days away and no refresh has seen its renewal offer yet.",
    );
  });

  it("says when the refresh was held to 30 days after the latest pull", () => {
    expect(
      nextRefreshWhy({ reason: { kind: "ON_TIME", ...reason, heldFrom: "2027-01-28" }, error: null, interval: "P1M" }),
    ).toBe(
      "45 days before the Progressive auto X-date (Mar 14, 2027), so the carrier's renewal offer is in it. Held from Jan 28, 2027: the service refreshes no sooner than 30 days after the latest pull.",
    );
  });

  it("falls back to the service's interval for no reason, a garbled one, or none at all", () => {
    const interval = "On the service's schedule (every 3 months): no verified X-date to time it by.";
    expect(nextRefreshWhy({ reason: { kind: "INTERVAL", interval: "P3M" }, error: null, interval: "P3M" })).toBe(
      interval,
    );
    expect(nextRefreshWhy({ reason: { kind: "ON_TIME", xDate: "soon" }, error: null, interval: "P3M" })).toBe(interval);
    expect(nextRefreshWhy({ reason: null, error: null, interval: null })).toBe(
      "On the service's schedule (its own interval): no verified X-date to time it by.",
    );
  });

  it("says why the service kept its own date when it refused ours", () => {
    const error = "The service refused the timed refresh (INVALID_INPUT); it keeps its own schedule.";
    expect(nextRefreshWhy({ reason: { kind: "ON_TIME", ...reason }, error, interval: "P1M" })).toBe(error);
  });
});
