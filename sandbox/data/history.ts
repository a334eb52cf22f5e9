import { buildPullForLine, failedPull, type Line, type SandboxPull } from "./pulls";
import { createRandom, DAY_MS } from "./random";

// A book of linked accounts with a past: the pulls an agency received over the last `days`
// days, for demos (the control API's POST /history). Deterministic for a seed and an end day:
// the same call gives the same pulls, ids and all, so a demo that is built again (or resumed
// after a restart) asks for the same book.

/** The mix of lines a personal-and-commercial agency sees, cycled through in a shuffled order. */
const HISTORY_LINES: readonly Line[] = [
  "auto",
  "home+auto",
  "home",
  "renters+auto",
  "auto",
  "home+auto",
  "flood",
  "commercial",
  "home",
  "renters+auto",
  "condo+umbrella",
  "auto",
  "home+auto",
  "landlord",
  "commercial",
  "home+auto+umbrella",
  "life+auto",
  "flood",
];

/** Lines whose expiry the generator can place (the auto policy, or the flood policy). */
const EXPIRY_LINES = new Set<Line>(["auto", "home+auto", "renters+auto", "flood", "life+auto", "home+auto+umbrella"]);

/** Share of links that fail (the consumer's credentials refused): reports count them as unsuccessful. */
const FAILED_SHARE = 0.05;

export type HistoryOptions = { seed: number; count: number; days: number; until: Date };

/**
 * `count` pulls created between `until - days` and `until`, oldest first, more of them in recent
 * months as an agency grows. Accounts linked in the last 90 days have, one in three, a policy
 * that expires within 90 days of `until`, so renewals are due.
 */
export function generateHistory({ seed, count, days, until }: HistoryOptions): SandboxPull[] {
  const random = createRandom(seed);
  const ages = Array.from({ length: count }, () => {
    // Skewed toward the recent past: the square root of a uniform draw.
    const share = 1 - Math.sqrt(random.next());
    return Math.max(1 / 24, share * days);
  }).sort((a, b) => b - a);
  return ages.map((ageDays, index) => {
    const created = new Date(until.getTime() - ageDays * DAY_MS);
    if (random.chance(FAILED_SHARE)) {
      return { ...failedPull(random, created, "NOT_AUTHENTICATED"), created_at: created.toISOString() };
    }
    const line = HISTORY_LINES[(index * 7 + random.int(0, 3)) % HISTORY_LINES.length] ?? "auto";
    const expiring = ageDays <= 90 && EXPIRY_LINES.has(line) && random.chance(0.34);
    // Days from the link to the expiry: its age, plus 5 to 88 days from `until`.
    const expiresInDays = expiring ? Math.round(ageDays) + random.int(5, 88) : undefined;
    const pull = buildPullForLine(random, created, line, {
      expiresInDays,
      withHistory: random.chance(0.3),
      withFileUpload: random.chance(0.2),
      mixedStatuses: random.chance(0.15),
    });
    // The generator's own creation date is a random day before `created`: the history's wins.
    return { ...pull, created_at: created.toISOString(), is_archived: pull.is_archived && ageDays > 30 };
  });
}
