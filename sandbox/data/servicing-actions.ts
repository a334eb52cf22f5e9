import { CARRIER_CATALOG } from "./carriers";

// Which servicing actions each carrier supports (service-notes: a carrier's `servicingActions`).
// The catalogue in carriers.ts is the place for it; until it carries the field, this table
// says it, keyed by the identifier pulls carry as insurance_provider_name.

export const SERVICING_ACTION_TYPES = ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE"] as const;
export type ServicingActionType = (typeof SERVICING_ACTION_TYPES)[number];

const MORTGAGEE: ServicingActionType[] = ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE"];

const SUPPORTED: Readonly<Record<string, readonly ServicingActionType[]>> = {
  progressive: [...MORTGAGEE, "ADD_VEHICLE"],
  state_farm: MORTGAGEE,
  statefarm: MORTGAGEE,
  geico: ["ADD_VEHICLE"],
  allstate: [...MORTGAGEE, "ADD_VEHICLE"],
  liberty_mutual: MORTGAGEE,
  libertymutual: MORTGAGEE,
  travelers: ["ADD_MORTGAGEE"],
  nationwide: [...MORTGAGEE, "ADD_VEHICLE"],
  usaa: ["ADD_MORTGAGEE", "EDIT_MORTGAGEE"],
};

/** The carrier's own list when the catalogue has one, else the table above; none for an unknown carrier. */
export function servicingActionsOf(carrierId: string): readonly string[] {
  const entry = CARRIER_CATALOG.find((c) => c.carrier_id === carrierId || c.name === carrierId) as Record<string, unknown> | undefined;
  const listed = entry?.servicingActions;
  if (Array.isArray(listed) && listed.every((a) => typeof a === "string")) return listed as string[];
  return SUPPORTED[carrierId] ?? [];
}
