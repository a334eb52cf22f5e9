// The demo agency's nine months, planned: who joins and leaves, how assignment is set up, and
// what the agency does with each linked account and when. Pure and deterministic: the same
// seed, accounts and end date give the same plan, which history.ts then carries out through the
// app's own commands.

import type { LostCategory } from "@/lib/workflow/lost-reasons";

export const HISTORY_DAYS = 270;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Who does what, by demo email (lib/auth/demo-users.ts). */
export const PEOPLE = {
  admin: "admin@example.com",
  manager: "manager@example.com",
  alex: "agent@example.com",
  jordan: "jordan@example.com",
  priya: "priya@example.com",
  sam: "sam@example.com",
  taylor: "taylor@example.com",
} as const;
export type Person = keyof typeof PEOPLE;
const AGENTS: readonly Person[] = ["alex", "jordan", "priya", "sam", "taylor"];

/** An account as stored, what the plan needs to know of it. */
export type PlanAccount = {
  pullId: string;
  createdAt: Date;
  successful: boolean;
  totalPremiumCents: number | null;
};

export type RuleSpec = { state?: string; lineOfBusiness?: string; assignee: Person };

/** The agency's assignment rules; Texas goes to whoever covers it (Taylor, then Sam after she leaves). */
const rulesWithTexasFor = (texas: Person): RuleSpec[] => [
  { lineOfBusiness: "GENERAL_LIABILITY", assignee: "priya" },
  { lineOfBusiness: "BUSINESS_OWNERS", assignee: "priya" },
  { lineOfBusiness: "FLOOD", assignee: "jordan" },
  { state: "TX", assignee: texas },
  { state: "FL", assignee: "jordan" },
];

export type PlanStep = { at: Date } & (
  | { kind: "create-agent"; who: Person }
  | { kind: "assignment-rules"; rules: RuleSpec[]; fallback: Person }
  | { kind: "deactivate"; who: Person; handoverTo: Person }
  | { kind: "auto-assign"; pullId: string }
  | { kind: "assign"; pullId: string; by: Person; to: Person }
  | { kind: "claim"; pullId: string; by: Person }
  | { kind: "open"; pullId: string }
  | { kind: "won"; pullId: string; premium: string }
  | {
      kind: "lost";
      pullId: string;
      reason: string | null;
      category: LostCategory;
      carrier: string | null;
      /** Dollars a year, as typed into the form. */
      premium: string | null;
    }
);

/** The agent's words, why (the form's list), and who won it at what share of the premium, when known. */
const LOST_REASONS: ReadonlyArray<{ text: string; category: LostCategory; carrier?: string; premiumShare?: number }> = [
  { text: "Went with a cheaper quote elsewhere", category: "PRICE", carrier: "GEICO", premiumShare: 0.88 },
  { text: "Stayed with their current carrier", category: "SERVICE" },
  { text: "No answer after three calls", category: "NO_CONTACT" },
  { text: "Price went up too much at renewal", category: "PRICE", carrier: "Progressive", premiumShare: 0.93 },
  { text: "Bought through a captive agent", category: "OTHER", carrier: "State Farm" },
  { text: "Coverage not available for the property", category: "COVERAGE" },
];

/** mulberry32: a small seeded stream, so the plan is the same on every machine. */
function stream(seed: number) {
  let a = seed | 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T };
}

export type DemoPlan = { start: Date; steps: PlanStep[]; lastStepOf: Map<string, number> };

export function planHistory(seed: number, until: Date, accounts: readonly PlanAccount[]): DemoPlan {
  const random = stream(seed);
  const start = new Date(until.getTime() - HISTORY_DAYS * DAY);
  const ago = (days: number) => new Date(until.getTime() - days * DAY);
  const samJoins = ago(130);
  const taylorLeaves = ago(75);
  const steps: PlanStep[] = [
    { kind: "create-agent", who: "jordan", at: new Date(start.getTime() - 3 * DAY) },
    { kind: "create-agent", who: "priya", at: new Date(start.getTime() - 3 * DAY + HOUR) },
    { kind: "create-agent", who: "taylor", at: new Date(start.getTime() - 3 * DAY + 2 * HOUR) },
    {
      kind: "assignment-rules",
      at: new Date(start.getTime() - 2 * DAY),
      rules: rulesWithTexasFor("taylor"),
      fallback: "alex",
    },
    { kind: "create-agent", who: "sam", at: samJoins },
    { kind: "deactivate", who: "taylor", handoverTo: "sam", at: taylorLeaves },
    {
      kind: "assignment-rules",
      at: new Date(taylorLeaves.getTime() + 20 * MINUTE),
      rules: rulesWithTexasFor("sam"),
      fallback: "alex",
    },
  ];
  const activeAt = (who: Person, at: Date) =>
    !(who === "sam" && at < samJoins) && !(who === "taylor" && at >= taylorLeaves);
  const agentAt = (at: Date) => {
    const candidates = AGENTS.filter((a) => activeAt(a, at));
    return random.pick(candidates);
  };

  for (const account of accounts) {
    if (!account.successful) continue;
    const { pullId } = account;
    const created = account.createdAt.getTime();
    const ageDays = (until.getTime() - created) / DAY;
    const draw = random.next();
    let assignedAt: number;
    if (draw < 0.1 && ageDays < 45) continue; // still in the queue
    if (draw < 0.55) {
      assignedAt = created + random.int(2, 15) * MINUTE;
      steps.push({ kind: "auto-assign", pullId, at: new Date(assignedAt) });
    } else if (draw < 0.85) {
      assignedAt = created + random.int(60, 30 * 60) * MINUTE;
      if (assignedAt >= until.getTime()) continue;
      const to = agentAt(new Date(assignedAt));
      steps.push({ kind: "assign", pullId, by: "manager", to, at: new Date(assignedAt) });
    } else {
      assignedAt = created + random.int(90, 48 * 60) * MINUTE;
      if (assignedAt >= until.getTime()) continue;
      steps.push({ kind: "claim", pullId, by: agentAt(new Date(assignedAt)), at: new Date(assignedAt) });
    }
    // The assignee opens it within the day, unless it is from the last two days.
    const opened = assignedAt + random.int(20, 20 * 60) * MINUTE;
    if (opened < until.getTime() - 2 * DAY) steps.push({ kind: "open", pullId, at: new Date(opened) });

    // A manager moves some to another agent (workload, a language, a day off).
    let lastChange = opened;
    if (random.next() < 0.08) {
      const at = opened + random.int(1, 6) * DAY;
      if (at < until.getTime() - DAY) {
        steps.push({ kind: "assign", pullId, by: "manager", to: agentAt(new Date(at)), at: new Date(at) });
        lastChange = at;
      }
    }

    const daysLeft = (until.getTime() - lastChange) / DAY;
    const [won, lost] = daysLeft > 30 ? [0.45, 0.3] : daysLeft > 10 ? [0.25, 0.15] : [0.08, 0.05];
    const outcome = random.next();
    if (daysLeft < 1.5 || outcome >= won + lost) continue; // still being worked
    const decidedAt = new Date(
      lastChange + random.int(1, Math.max(1, Math.min(45, Math.floor(daysLeft) - 1))) * DAY + random.int(0, 8) * HOUR,
    );
    if (decidedAt.getTime() >= until.getTime()) continue;
    if (outcome < won) {
      const base = account.totalPremiumCents && account.totalPremiumCents > 0 ? account.totalPremiumCents : 150_000;
      const cents = Math.max(10_000, Math.round((base * random.int(85, 105)) / 100));
      steps.push({ kind: "won", pullId, premium: (cents / 100).toFixed(2), at: decidedAt });
    } else {
      // The same draws as before the reasons had categories, so the plan is unchanged.
      const reason = random.next() < 0.85 ? random.pick(LOST_REASONS) : null;
      const base = account.totalPremiumCents && account.totalPremiumCents > 0 ? account.totalPremiumCents : null;
      steps.push({
        kind: "lost",
        pullId,
        reason: reason?.text ?? null,
        category: reason?.category ?? "OTHER",
        carrier: reason?.carrier ?? null,
        premium: reason?.premiumShare && base ? (Math.round(base * reason.premiumShare) / 100).toFixed(2) : null,
        at: decidedAt,
      });
    }
  }
  // One timeline: by time, and in the order planned when two steps share a moment.
  const ordered = steps.map((step, index) => ({ step, index }));
  ordered.sort((a, b) => a.step.at.getTime() - b.step.at.getTime() || a.index - b.index);
  const sorted = ordered.map((o) => o.step);
  const lastStepOf = new Map<string, number>();
  sorted.forEach((step, index) => {
    if ("pullId" in step) lastStepOf.set(step.pullId, index);
  });
  return { start, steps: sorted, lastStepOf };
}
