import type { Dwelling, PropertyData, Pull } from "@/lib/service/schemas";
import { dwellingCoverageKind } from "./coverage-names";

// Whether the property data places a home in a flood zone. The spec's PropertyData publishes no
// flood field; property records that carry one send it under names like `flood_zone` (a FEMA
// zone code) or `in_flood_zone` (a flag), which the tolerant schema keeps as extra fields. So the
// flood rule reads any such field, and says nothing when there is none: no field is no evidence.

export type FloodZone = { inZone: boolean | null; value: string };

/** FEMA's special flood hazard areas (A and V zones, the 1%-a-year floodplain). */
const HIGH_RISK = /^(A|AE|AH|AO|AR|A99|A\d{1,2}|AR\/?A\w*|V|VE|V\d{1,2})$/;
/** Moderate and minimal risk (B, C, X, shaded or not). */
const LOWER_RISK = /^(B|C|X|X500|SHADED X|UNSHADED X|X SHADED|X UNSHADED|0\.2 ?PCT|NONE|NO)$/;
const WORDS_HIGH = /^(HIGH|SFHA|SPECIAL FLOOD HAZARD AREA|YES|TRUE|Y)$/;
const WORDS_LOW = /^(LOW|MINIMAL|MODERATE|FALSE|N)$/;

export function floodZoneOf(data: PropertyData | null): FloodZone | null {
  if (!data) return null;
  for (const [key, value] of Object.entries(data)) {
    if (!/flood/i.test(key) || value === null || value === undefined || value === "") continue;
    if (typeof value === "boolean") return { inZone: value, value: value ? "yes" : "no" };
    if (typeof value !== "string") return { inZone: null, value: JSON.stringify(value) ?? "" };
    const code = value
      .trim()
      .toUpperCase()
      .replace(/^(ZONE|FEMA)\s+/, "");
    if (HIGH_RISK.test(code) || WORDS_HIGH.test(code)) return { inZone: true, value: value.trim() };
    if (LOWER_RISK.test(code) || WORDS_LOW.test(code)) return { inZone: false, value: value.trim() };
    return { inZone: null, value: value.trim() };
  }
  return null;
}

const NOT_IN_FORCE = new Set(["CANCELLED", "RESCINDED", "EXPIRED", "QUOTE"]);

/** A flood policy in force on the account, or flood cover on the home's own policy. */
export function householdHasFlood(pull: Pull, dwelling: Dwelling): boolean {
  const inForce = pull.policies.filter((p) => !NOT_IN_FORCE.has(p.status ?? ""));
  return (
    inForce.some((p) => p.policy_type === "FLOOD") ||
    dwelling.coverages.some((c) => dwellingCoverageKind(c) === "FLOOD" && !c.is_declined)
  );
}
