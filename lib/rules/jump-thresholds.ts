// The agency's premium-jump rule: alerts read it, the rules page sets it.

/** Percent by which a line's renewal premium may rise before it alerts; `default` for the rest. */
export type JumpThresholds = { default: number } & Partial<Record<string, number>>;
export const DEFAULT_JUMP_THRESHOLDS: JumpThresholds = { default: 10 };
