import { describe, expect, it } from "vitest";
import { acceptedPull } from "@/lib/service/schemas/test-support";
import { detectAlerts } from "./detect";

const TODAY = "2026-11-25";
const ACCOUNT = "acct_1";

function auto(fields: Record<string, unknown> = {}, vehicleCoverages?: unknown[]) {
  return {
    policy_id: "p-auto",
    carrier_policy_number: "PA-100",
    policy_type: "AUTO",
    carrier_friendly_name: "Progressive",
    status: "ACTIVE",
    effective_date: "2026-09-14",
    expiry_date: "2027-03-14",
    total_premium_cents: 204_400,
    vehicles: [
      {
        vehicle_id: "v1",
        vin: "1HGCM82633A004352",
        year: 2019,
        make: "Honda",
        model: "Civic",
        coverages: vehicleCoverages ?? [
          {
            vehicle_coverage_id: "c1",
            name: "BODILY_INJURY",
            friendly_name: "Bodily Injury Liability",
            per_person_limit_cents: 10_000_000,
            per_incident_limit_cents: 30_000_000,
          },
        ],
      },
    ],
    dwellings: [],
    ...fields,
  };
}
const pullWith = (...policies: unknown[]) => acceptedPull({ policies }).pull;

describe("alerts a refresh raises", () => {
  it("a renewal premium up past the threshold, in words with the figures", () => {
    const before = pullWith(auto());
    const after = pullWith(
      auto({
        effective_date: "2027-03-14",
        expiry_date: "2027-09-14",
        renewal_date: "2027-03-14",
        total_premium_cents: 241_200,
      }),
    );
    const [alert, ...rest] = detectAlerts(before, after, { account: ACCOUNT, today: TODAY });
    expect(rest).toEqual([]);
    // $2,044 → $2,412 for six months: $4,088 → $4,824 a year, up 18%.
    expect(alert?.headline).toBe("Progressive auto renews on Mar 14, 2027 at $2,412.00, up 18% ($736.00 a year)");
    expect(alert).toMatchObject({ kind: "PREMIUM_JUMP", beforeCents: 408_800, afterCents: 482_400 });
    expect(alert?.details.some((d) => d.startsWith("Auto premium up 18% at renewal"))).toBe(true);
    expect(alert?.key.startsWith(`${ACCOUNT}|PREMIUM_JUMP|PA-100|`)).toBe(true);
  });

  it("nothing for a rise within the threshold, a fall, or a premium missing on either side", () => {
    const before = pullWith(auto());
    const small = pullWith(auto({ total_premium_cents: 220_000 })); // +7.6%
    expect(detectAlerts(before, small, { account: ACCOUNT, today: TODAY })).toEqual([]);
    expect(
      detectAlerts(before, pullWith(auto({ total_premium_cents: 150_000 })), { account: ACCOUNT, today: TODAY }),
    ).toEqual([]);
    expect(
      detectAlerts(before, pullWith(auto({ total_premium_cents: null })), { account: ACCOUNT, today: TODAY }),
    ).toEqual([]);
    expect(detectAlerts(pullWith(auto({ total_premium_cents: 0 })), small, { account: ACCOUNT, today: TODAY })).toEqual(
      [],
    );
  });

  it("the threshold is per line: 5% for auto alerts on a 7.6% rise", () => {
    const alerts = detectAlerts(pullWith(auto()), pullWith(auto({ total_premium_cents: 220_000 })), {
      account: ACCOUNT,
      today: TODAY,
      thresholds: { default: 10, AUTO: 5 },
    });
    expect(alerts.map((a) => a.kind)).toEqual(["PREMIUM_JUMP"]);
    // ($2,200 − $2,044) × 2 terms a year.
    expect(alerts[0]?.headline).toBe("Progressive auto premium is now $2,200.00, up 8% ($312.00 a year)");
  });

  it("a cancellation, once, with its date", () => {
    const before = pullWith(auto());
    const after = pullWith(auto({ status: "CANCELLED", canceled_date: "2026-11-20" }));
    const alerts = detectAlerts(before, after, { account: ACCOUNT, today: TODAY });
    expect(alerts.map((a) => a.headline)).toEqual(["Progressive auto was cancelled on Nov 20, 2026"]);
    // Already cancelled before: nothing new to say.
    expect(detectAlerts(after, after, { account: ACCOUNT, today: TODAY })).toEqual([]);
  });

  it("a lapse, but not a renewal under a new policy number", () => {
    const before = pullWith(auto({ expiry_date: "2026-11-01" }));
    const expired = pullWith(auto({ status: "EXPIRED", expiry_date: "2026-11-01" }));
    expect(detectAlerts(before, expired, { account: ACCOUNT, today: TODAY }).map((a) => a.headline)).toEqual([
      "Progressive auto lapsed on Nov 1, 2026 with no renewal",
    ]);
    const renewed = pullWith(
      auto({ status: "EXPIRED", expiry_date: "2026-11-01" }),
      auto({
        policy_id: "p-new",
        carrier_policy_number: "PA-200",
        effective_date: "2026-11-01",
        expiry_date: "2027-05-01",
      }),
    );
    expect(detectAlerts(before, renewed, { account: ACCOUNT, today: TODAY })).toEqual([]);
    const gone = pullWith();
    expect(detectAlerts(before, gone, { account: ACCOUNT, today: TODAY }).map((a) => a.headline)).toEqual([
      "Progressive auto is no longer on the account (it ran to Nov 1, 2026)",
    ]);
  });

  it("a coverage cut: a lowered limit or a coverage removed", () => {
    const before = pullWith(auto());
    const lowered = pullWith(
      auto({}, [
        {
          vehicle_coverage_id: "c1",
          name: "BODILY_INJURY",
          friendly_name: "Bodily Injury Liability",
          per_person_limit_cents: 5_000_000,
          per_incident_limit_cents: 10_000_000,
        },
      ]),
    );
    const [cut] = detectAlerts(before, lowered, { account: ACCOUNT, today: TODAY });
    expect(cut?.kind).toBe("COVERAGE_CUT");
    expect(cut?.headline).toBe(
      "Progressive auto: Bodily Injury Liability per-person limit lowered from $100,000.00 to $50,000.00 on the 2019 Honda Civic and 1 more cut",
    );
    const removed = detectAlerts(before, pullWith(auto({}, [])), { account: ACCOUNT, today: TODAY });
    expect(removed[0]?.headline).toBe("Progressive auto: Bodily Injury Liability removed from the 2019 Honda Civic");
  });

  it("the same refresh gives the same keys, so it is raised once", () => {
    const before = pullWith(auto());
    const after = pullWith(auto({ total_premium_cents: 300_000 }));
    const keys = () => detectAlerts(before, after, { account: ACCOUNT, today: TODAY }).map((a) => a.key);
    expect(keys()).toEqual(keys());
    const later = detectAlerts(before, pullWith(auto({ total_premium_cents: 320_000 })), {
      account: ACCOUNT,
      today: TODAY,
    });
    expect(later[0]?.key).not.toBe(keys()[0]); // a higher offer later is news again
  });

  it("odd payloads raise nothing rather than something wrong", () => {
    const odd = pullWith({ policy_id: "x", policy_type: "SOMETHING_NEW", vehicles: [], dwellings: [] });
    expect(detectAlerts(odd, odd, { account: ACCOUNT, today: TODAY })).toEqual([]);
    expect(detectAlerts(acceptedPull({}).pull, pullWith(auto()), { account: ACCOUNT, today: TODAY })).toEqual([]);
  });
});
