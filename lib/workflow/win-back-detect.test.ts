import { describe, expect, it } from "vitest";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { generatePulls } from "@/sandbox/data/pulls";
import { detectWinBack } from "./win-back-detect";

// A won client's refresh against the snapshot before it: cancelled, rescinded or moved to
// another carrier is a win-back; a renewal, a lapse, a quote or an odd payload is not.

const [template] = generatePulls(7, 1, new Date("2026-06-01T00:00:00Z"));

type Spec = { id: string; type?: string; carrier?: string | null; status?: string | null; canceled?: string | null };

function pullOf(policies: Spec[]): Pull {
  if (!template) throw new Error("no template pull");
  const base = (template.policies as Array<Record<string, unknown>>)[0];
  const parsed = parsePull({
    ...template,
    policies: policies.map((p) => ({
      ...base,
      policy_id: p.id,
      carrier_policy_number: `N-${p.id}`,
      policy_type: p.type ?? "AUTO",
      carrier_name: p.carrier === null ? null : (p.carrier ?? "Progressive").toLowerCase(),
      carrier_friendly_name: p.carrier === null ? null : (p.carrier ?? "Progressive"),
      status: p.status === undefined ? "ACTIVE" : p.status,
      canceled_date: p.canceled ?? null,
    })),
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pull;
}

describe("detectWinBack", () => {
  it("finds a policy cancelled or rescinded since, with its day", () => {
    const before = pullOf([{ id: "a" }, { id: "b", type: "HOMEOWNERS" }]);
    const after = pullOf([
      { id: "a", status: "CANCELLED", canceled: "2026-11-20" },
      { id: "b", type: "HOMEOWNERS", status: "RESCINDED" },
    ]);
    const found = detectWinBack(before, after);
    expect(found.map((l) => [l.policyKey, l.change, l.on])).toEqual(
      expect.arrayContaining([
        ["N-a", "CANCELLED", "2026-11-20"],
        ["N-b", "RESCINDED", null],
      ]),
    );
    expect(found).toHaveLength(2);
  });

  it("finds a line now with another carrier", () => {
    const before = pullOf([{ id: "a", carrier: "Progressive" }]);
    const moved = detectWinBack(before, pullOf([{ id: "a", carrier: "GEICO" }]));
    expect(moved).toMatchObject([{ change: "MOVED", carrierLabel: "Progressive", toCarrier: "GEICO" }]);
    const replaced = detectWinBack(
      before,
      pullOf([
        { id: "a", status: "EXPIRED" },
        { id: "z", carrier: "Allstate" },
      ]),
    );
    expect(replaced).toMatchObject([{ change: "MOVED", toCarrier: "Allstate" }]);
  });

  it("finds nothing in a plain renewal, a lapse, a quote, a policy already cancelled, or odd data", () => {
    const before = pullOf([{ id: "a" }, { id: "q", status: "QUOTE" }, { id: "c", status: "CANCELLED" }]);
    expect(detectWinBack(before, before)).toEqual([]);
    // Lapsed with nothing in its place: an alert, not a win-back.
    expect(detectWinBack(before, pullOf([{ id: "a", status: "EXPIRED" }]))).toEqual([]);
    expect(detectWinBack(before, pullOf([]))).toEqual([]);
    expect(detectWinBack(pullOf([]), pullOf([{ id: "a", status: "CANCELLED" }]))).toEqual([]);
    // No carrier named: nothing to compare, nothing claimed.
    expect(detectWinBack(pullOf([{ id: "a", carrier: null }]), pullOf([{ id: "a", status: "CANCELLED" }]))).toEqual([]);
    expect(detectWinBack(pullOf([{ id: "a", status: null }]), pullOf([{ id: "a", status: "SOMETHING_NEW" }]))).toEqual(
      [],
    );
  });
});
