// The kinds of change a monitoring refresh can find, in a module of their own: the refresh
// (changes.ts) makes them and a monitoring's record (state.ts) names the next one asked for, and
// changes.ts already reads state.ts's event type.

/** Every kind, for the control API's `change` option; the last two only on request. */
export const CHANGE_KINDS = [
  "renewal",
  "renewal_increase",
  "vehicle_added",
  "coverage_changed",
  "claim_opened",
  "mortgagee_added",
  "policy_cancelled",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
