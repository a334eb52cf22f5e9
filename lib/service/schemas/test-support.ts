import { parsePull, type Pull } from "./pull";
import type { PayloadProblem, PayloadProblemKind } from "./problems";

// Shared by the schema tests only (nothing in the app imports it): a valid pull id and small
// readers that fail loudly, so a test never has to assert non-null.

export const PULL_ID = "59ced597-b48f-49e3-9756-799e4c6f79a0";

/** Parses a pull that must be accepted; a rejection fails the test with its reason. */
export function acceptedPull(raw: Record<string, unknown>): { pull: Pull; problems: PayloadProblem[] } {
  const result = parsePull({ pull_id: PULL_ID, ...raw });
  if (!result.ok) throw new Error(`expected the pull to be accepted: ${result.error}`);
  return { pull: result.pull, problems: result.problems };
}

/** The problems reported at exactly `path`, as `kind`s, for compact assertions. */
export function kindsAt(problems: readonly PayloadProblem[], path: string): PayloadProblemKind[] {
  return problems.filter((problem) => problem.path === path).map((problem) => problem.kind);
}

/** The one item of a list a test expects to hold exactly one. */
export function only<T>(items: readonly T[]): T {
  if (items.length !== 1) throw new Error(`expected exactly one item, got ${items.length}`);
  const [item] = items;
  return item as T;
}

/** The item at `index`, failing the test when it is not there. */
export function at<T>(items: readonly T[], index: number): T {
  if (index >= items.length) throw new Error(`expected an item at ${index}, the list has ${items.length}`);
  return items[index] as T;
}
