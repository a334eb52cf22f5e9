import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { assignmentSettings, offices, pulls, users, type AssignmentSettingsRow } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, type CommandResult } from "@/lib/core/result";

// Automatic assignment of new pulls, configured by an admin: off, round-robin among active
// agents, or rules by state and line of business (first match wins) to a person or to an
// office's queue, with a fallback. A pull
// is assigned once, when it first becomes SUCCESS unassigned; people can change it after.

const ruleSchema = z
  .object({
    state: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "A state is two letters, such as TX.")
      .optional(),
    lineOfBusiness: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9_]{2,40}$/, "Choose a line of business.")
      .optional(),
    assigneeId: z.uuid("Choose who gets these pulls.").optional(),
    /** An office's queue: the pull stays unassigned, in that office (its manager and agents see it). */
    officeId: z.uuid("Choose an office.").optional(),
  })
  .refine((rule) => !(rule.assigneeId && rule.officeId), {
    message: "A rule goes to a person or to an office's queue, not both.",
    path: ["officeId"],
  });
export type AssignmentRule = z.output<typeof ruleSchema>;

/** The form's empty choice ("") is no choice. */
const blankless = (row: unknown): unknown =>
  row && typeof row === "object"
    ? Object.fromEntries(Object.entries(row).filter(([, value]) => value !== "" && value !== null))
    : row;

export const settingsInputSchema = z.object({
  mode: z.enum(["OFF", "ROUND_ROBIN", "RULES"], { message: "Choose off, round-robin or rules." }),
  /** A row that goes to nobody and to no office is no rule (the form's "(no rule)"), whatever else it says. */
  rules: z
    .preprocess(
      (rows) =>
        Array.isArray(rows)
          ? rows
              .map(blankless)
              .filter(
                (row) =>
                  (row as { assigneeId?: unknown; officeId?: unknown } | null)?.assigneeId ||
                  (row as { officeId?: unknown } | null)?.officeId,
              )
          : rows,
      z.array(ruleSchema).max(50, "Keep it to 50 rules."),
    )
    .default([]),
  fallbackAssigneeId: z.uuid().nullable().default(null),
});

/** What assigning needs of the settings row (not who changed it, or when). */
const settingsColumns = {
  mode: assignmentSettings.mode,
  rules: assignmentSettings.rules,
  fallbackAssigneeId: assignmentSettings.fallbackAssigneeId,
  lastAssigneeId: assignmentSettings.lastAssigneeId,
};
type AssignmentSettings = Pick<AssignmentSettingsRow, keyof typeof settingsColumns>;

const DEFAULTS = {
  mode: "OFF",
  rules: [] as AssignmentRule[],
  fallbackAssigneeId: null as string | null,
  lastAssigneeId: null as string | null,
};

export async function getAssignmentSettings(db: Db): Promise<typeof DEFAULTS> {
  const [row] = await db.select(settingsColumns).from(assignmentSettings).where(eq(assignmentSettings.id, 1));
  return row
    ? {
        mode: row.mode,
        rules: row.rules as AssignmentRule[],
        fallbackAssigneeId: row.fallbackAssigneeId,
        lastAssigneeId: row.lastAssigneeId,
      }
    : DEFAULTS;
}

export async function saveAssignmentSettings(
  db: Db,
  actor: Actor,
  input: z.input<typeof settingsInputSchema> | Record<string, unknown>,
  /** When the change is made; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult> {
  if (!can(actor, "settings:manage")) return forbidden("Only admins can change automatic assignment.");
  const parsed = settingsInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path.join("."));
  }
  const settings = parsed.data;
  if (settings.mode === "RULES" && settings.rules.length === 0)
    return invalid("Add at least one rule, or choose another mode.", "rules");
  const routed = [...new Set(settings.rules.flatMap((r) => (r.officeId ? [r.officeId] : [])))];
  if (routed.length > 0) {
    const known = await db.select({ id: offices.id }).from(offices).where(inArray(offices.id, routed));
    if (known.length !== routed.length) return invalid("A rule names an office that does not exist.", "rules");
  }
  const referenced = [
    ...new Set([
      ...settings.rules.flatMap((r) => (r.assigneeId ? [r.assigneeId] : [])),
      ...(settings.fallbackAssigneeId ? [settings.fallbackAssigneeId] : []),
    ]),
  ];
  if (referenced.length > 0) {
    const active = await db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, referenced), eq(users.isActive, true)));
    if (active.length !== referenced.length)
      return invalid("A rule names someone who does not exist or is no longer active.", "rules");
  }
  return db.transaction(async (tx) => {
    const values = {
      mode: settings.mode,
      rules: settings.rules,
      fallbackAssigneeId: settings.fallbackAssigneeId,
      updatedAt: now,
      updatedBy: actor.id,
    };
    await tx
      .insert(assignmentSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: assignmentSettings.id, set: values });
    await recordAudit(tx, actor, "ASSIGNMENT_SETTINGS_CHANGED", {
      at: now,
      details: {
        mode: settings.mode,
        rules: settings.rules.length,
        fallbackAssigneeId: settings.fallbackAssigneeId,
        // The offices the rules route to, so a change of a rule's office shows in the trail.
        offices: routed,
      },
    });
    return { ok: true as const };
  });
}

export type PullFacts = { pullId: string; states: string[]; linesOfBusiness: string[] };

async function nextRoundRobinAgent(tx: Db, lastId: string | null): Promise<{ id: string; name: string } | null> {
  const active = and(eq(users.role, "AGENT"), eq(users.isActive, true));
  const after = lastId
    ? await tx
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(and(active, gt(users.id, lastId)))
        .orderBy(asc(users.id))
        .limit(1)
    : [];
  if (after[0]) return after[0];
  const [first] = await tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(active)
    .orderBy(asc(users.id))
    .limit(1);
  return first ?? null;
}

async function activeUser(tx: Db, id: string | null): Promise<{ id: string; name: string } | null> {
  if (!id) return null;
  const [user] = await tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)));
  return user ?? null;
}

export type AutoAssignee = { user: { id: string; name: string }; reason: string };
/** Where the rules send a pull: a person, or an office's queue (it stays unassigned there). */
type Route = AutoAssignee | { user: null; officeId: string; reason: string };

/**
 * Whom the automatic assignment rules give a pull to now, other than `exclude` (the agent the
 * speed-to-lead rule takes a waiting pull from, lib/workflow/speed-to-lead.ts), with the
 * round-robin's turn taken; null when assignment is off or names no one (else). In the
 * caller's transaction: in round-robin, the settings row stays locked until it ends, so two
 * pulls never take the same turn.
 */
export async function chooseAutoAssignee(
  tx: Db,
  facts: PullFacts,
  exclude: string | null = null,
): Promise<AutoAssignee | null> {
  const route = await chooseRoute(tx, facts, exclude);
  return route?.user ? { user: route.user, reason: route.reason } : null;
}

async function chooseRoute(tx: Db, facts: PullFacts, exclude: string | null): Promise<Route | null> {
  // Read without a lock first: only a round-robin turn changes the row, and a lock taken for
  // every new lead would queue all the workers' stores behind one another until each commits.
  let [settings] = await tx.select(settingsColumns).from(assignmentSettings).where(eq(assignmentSettings.id, 1));
  if (!settings || settings.mode === "OFF") return null;
  if (settings.mode === "ROUND_ROBIN")
    [settings] = await tx
      .select(settingsColumns)
      .from(assignmentSettings)
      .where(eq(assignmentSettings.id, 1))
      .for("update");
  if (!settings || settings.mode === "OFF") return null;
  const choice = await choose(tx, settings, facts, exclude);
  if (choice?.user && settings.mode === "ROUND_ROBIN")
    await tx.update(assignmentSettings).set({ lastAssigneeId: choice.user.id }).where(eq(assignmentSettings.id, 1));
  return choice;
}

/** Picks and records an assignee for a pull that just became SUCCESS unassigned. In the caller's transaction. */
export async function autoAssignPull(tx: Db, facts: PullFacts, now: Date = new Date()): Promise<string | null> {
  const choice = await chooseRoute(tx, facts, null);
  if (!choice) return null;
  if (!choice.user) {
    // An office's queue: unassigned, but its manager and agents see it (and only they, of the offices).
    await tx.update(pulls).set({ officeId: choice.officeId }).where(eq(pulls.pullId, facts.pullId));
    return null;
  }
  await tx
    .update(pulls)
    .set({ assigneeId: choice.user.id, assignedAt: now, assigneeSeenAt: null })
    .where(eq(pulls.pullId, facts.pullId));
  await recordAudit(tx, null, "PULL_ASSIGNED", {
    pullId: facts.pullId,
    at: now,
    subjectUserId: choice.user.id,
    details: { from: null, to: choice.user.id, toName: choice.user.name, reason: choice.reason },
  });
  await enqueueEvent(
    tx,
    "pull.assigned",
    { pull_id: facts.pullId, from_assignee_id: null, to_assignee_id: choice.user.id },
    now,
  );
  return choice.user.id;
}

async function choose(
  tx: Db,
  settings: AssignmentSettings,
  facts: PullFacts,
  exclude: string | null,
): Promise<Route | null> {
  if (settings.mode === "ROUND_ROBIN") {
    let user = await nextRoundRobinAgent(tx, settings.lastAssigneeId);
    // The excluded agent's turn passes to the next; a lone agent is no one else.
    if (user && user.id === exclude) user = await nextRoundRobinAgent(tx, user.id);
    return user && user.id !== exclude ? { user, reason: "round-robin" } : null;
  }
  const rules = settings.rules as AssignmentRule[];
  for (const [index, rule] of rules.entries()) {
    const stateOk = !rule.state || facts.states.includes(rule.state);
    const lineOk = !rule.lineOfBusiness || facts.linesOfBusiness.includes(rule.lineOfBusiness);
    if (!stateOk || !lineOk) continue;
    if (rule.officeId && !rule.assigneeId) return { user: null, officeId: rule.officeId, reason: `rule ${index + 1}` };
    const user = await activeUser(tx, rule.assigneeId ?? null);
    if (user && user.id !== exclude) return { user, reason: `rule ${index + 1}` };
  }
  const fallback = await activeUser(tx, settings.fallbackAssigneeId);
  return fallback && fallback.id !== exclude ? { user: fallback, reason: "fallback" } : null;
}
