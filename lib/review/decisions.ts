import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { findingDecisions, pulls, type FindingDecisionRow } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { Pull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, stale, type CommandResult } from "@/lib/core/result";
import { reviewHousehold } from "./coverage";
import { getReviewSettings } from "./review-rules";

// The errors-and-omissions record: what the client decided about each finding of the coverage
// review (took the advice, declined it, or it does not apply), with the agent's note. One row per
// account and finding (a refresh of the account keeps its decisions, since finding keys are
// stable), upserted with its audit entry in one transaction: the row is the current decision,
// the audit trail keeps every earlier one with who and when.

export const FINDING_DECISIONS = ["ACCEPTED", "DECLINED", "NOT_APPLICABLE"] as const;
export type FindingDecision = (typeof FINDING_DECISIONS)[number];

export const isFindingDecision = (value: string): value is FindingDecision =>
  (FINDING_DECISIONS as readonly string[]).includes(value);

export const DECISION_LABELS: Record<FindingDecision, string> = {
  ACCEPTED: "Accepted",
  DECLINED: "Declined by the client",
  NOT_APPLICABLE: "Not applicable",
};

export const MAX_NOTE = 2_000;

export const decideFindingInputSchema = z.object({
  pullId: z.uuid({ message: "This form could not be read. Reload the page and try again." }),
  findingKey: z
    .string({ message: "Choose a finding." })
    .min(1, "Choose a finding.")
    .max(300, "This form could not be read. Reload the page and try again."),
  decision: z.enum(FINDING_DECISIONS, { message: "Choose accepted, declined by the client, or not applicable." }),
  note: z
    .string()
    .trim()
    .max(MAX_NOTE, `Keep the note under ${MAX_NOTE.toLocaleString("en-US")} characters.`)
    .default(""),
});
export type DecideFindingInput = z.input<typeof decideFindingInputSchema>;

/** The account a decision belongs to: its identifier (stable across refreshes), else the pull. */
export const accountKeyOf = (detail: { accountKey: string | null; pull: Pick<Pull, "pull_id"> }) =>
  detail.accountKey || detail.pull.pull_id;

/** The UTC day of an instant, as the review reads "today". */
export const dayOfInstant = (now: Date) => now.toISOString().slice(0, 10);

export async function decideFinding(
  db: Db,
  actor: Actor,
  input: DecideFindingInput | Record<string, unknown>,
  /** When it was decided; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult<{ decision: FindingDecisionRow }>> {
  const parsed = decideFindingInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path.join("."));
  }
  const { pullId, findingKey, decision, note } = parsed.data;
  const detail = await getViewablePull(db, actor, pullId);
  if (!detail || detail.pull.parent_pull_id) return notFound();
  if (!canOnPull(actor, "findings:decide", detail.workflow))
    return forbidden(
      "This account is another agent's: only they, a manager or an admin can record the client's decisions.",
    );
  // The finding must be in the review the page showed (the same rules, the same day).
  const finding = reviewHousehold(detail.pull, await getReviewSettings(db), dayOfInstant(now)).find(
    (f) => f.key === findingKey,
  );
  if (!finding)
    return stale("That finding is no longer in this account's review. Reload the page to see the current one.");
  const accountKey = accountKeyOf(detail);
  const row = await db.transaction(async (tx) => {
    const [previous] = await tx
      .select()
      .from(findingDecisions)
      .where(and(eq(findingDecisions.accountKey, accountKey), eq(findingDecisions.findingKey, findingKey)))
      .for("update");
    const values = { pullId, decision, note, decidedBy: actor.id, decidedByName: actor.name, decidedAt: now };
    const [saved] = await tx
      .insert(findingDecisions)
      .values({ accountKey, findingKey, ...values })
      .onConflictDoUpdate({ target: [findingDecisions.accountKey, findingDecisions.findingKey], set: values })
      .returning();
    await recordAudit(tx, actor, "FINDING_DECIDED", {
      pullId,
      at: now,
      details: {
        findingKey,
        rule: finding.rule,
        title: finding.title,
        severity: finding.severity,
        decision,
        note,
        previousDecision: previous?.decision ?? null,
      },
    });
    return saved;
  });
  if (!row) throw new Error("the decision was not saved");
  return { ok: true, decision: row };
}

/** Every current decision of the account a pull belongs to, by finding key. */
export async function getDecisions(db: Db, pullId: string): Promise<Map<string, FindingDecisionRow>> {
  const rows = await db
    .select()
    .from(findingDecisions)
    .where(
      eq(
        findingDecisions.accountKey,
        sql`(select coalesce(nullif(${pulls.accountIdentifier}, ''), ${pulls.pullId}::text) from ${pulls} where ${pulls.pullId} = ${pullId})`,
      ),
    );
  return new Map(rows.map((row) => [row.findingKey, row]));
}
