import { describe, expect, it } from "vitest";
import {
  dealReturnKindLabel,
  recycledHeadline,
  recycledKey,
  winBackHeadline,
  winBackKey,
  type WinBackLoss,
} from "./deal-return-words";

// The words and keys of a deal that came back: what the agent reads first, and what makes a
// return happen once.

const facts = {
  lostAt: new Date("2026-03-10T15:00:00Z"),
  lostCategory: "PRICE",
  lostToCarrier: "GEICO",
  premiumThenCents: 148_000,
  carrierLabel: "Progressive",
  policyType: "AUTO",
  xDate: "2027-03-14",
  renewalPremiumCents: 241_200,
  today: "2027-02-01",
};

describe("recycledHeadline", () => {
  it("says when and why it was lost, and what renews when at what premium", () => {
    expect(recycledHeadline(facts)).toBe(
      "Lost in March 2026 to GEICO on price ($1,480); Progressive auto renews Mar 14, 2027 at $2,412",
    );
    // The year only when it is not this one.
    expect(recycledHeadline({ ...facts, today: "2026-12-01" })).toMatch(/^Lost in March to GEICO/);
  });

  it("leaves out what nobody knew, and never prints a dash or NaN", () => {
    const bare = recycledHeadline({
      ...facts,
      lostAt: null,
      lostCategory: null,
      lostToCarrier: null,
      premiumThenCents: null,
      carrierLabel: null,
      policyType: null,
      renewalPremiumCents: null,
    });
    expect(bare).toBe("Lost; The policy renews Mar 14, 2027");
    const odd = recycledHeadline({ ...facts, lostAt: new Date("nonsense"), lostCategory: "SOMETHING_NEW" });
    expect(odd).toBe("Lost to GEICO ($1,480); Progressive auto renews Mar 14, 2027 at $2,412");
    expect(recycledHeadline({ ...facts, lostCategory: "NO_CONTACT", lostToCarrier: null })).toContain(
      "Lost in March 2026 after no contact ($1,480)",
    );
  });
});

describe("winBackHeadline", () => {
  const loss: WinBackLoss = {
    policyKey: "P-1",
    policyType: "AUTO",
    carrierLabel: "Progressive",
    change: "CANCELLED",
    toCarrier: null,
    on: "2026-11-20",
    annualCents: 120_000,
  };
  it("says when it was won and what the refresh shows", () => {
    expect(
      winBackHeadline({
        wonAt: new Date("2026-01-12T10:00:00Z"),
        wonPremiumCents: 184_250,
        losses: [loss],
        today: "2026-11-21",
      }),
    ).toBe("Won in January at $1,843; Progressive auto was cancelled on Nov 20, 2026");
    expect(
      winBackHeadline({
        wonAt: null,
        wonPremiumCents: null,
        losses: [{ ...loss, change: "MOVED", toCarrier: "GEICO" }, loss],
        today: "2026-11-21",
      }),
    ).toBe("Won; auto moved from Progressive to GEICO (and 1 more)");
  });
});

describe("keys", () => {
  it("name the account and the X-date, or the account, the policies and the refresh", () => {
    expect(recycledKey("acct_1", "2027-03-14")).toBe("RECYCLED:acct_1:2027-03-14");
    // The order the policies were found in does not make a second key.
    expect(winBackKey("acct_1", ["B", "A"], "p2")).toBe(winBackKey("acct_1", ["A", "B"], "p2"));
    expect(winBackKey("acct_1", ["A"], "p2")).not.toBe(winBackKey("acct_1", ["A"], "p3"));
  });

  it("read kinds as words, and an unknown kind as it was stored", () => {
    expect(dealReturnKindLabel("RECYCLED")).toBe("Lost deal, X-date near");
    expect(dealReturnKindLabel("SOMETHING_ELSE")).toBe("Something else");
  });
});
