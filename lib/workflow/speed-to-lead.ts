import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { alerts, pulls, users } from "@/db/schema";
import { formatDuration } from "@/lib/format";
import { laterPullOfAccount } from "@/lib/pulls/arrivals";
import { getAgencyRules, type AgencyRules } from "@/lib/rules/agency-rules";
import { recordAudit } from "@/lib/audit/audit-log";
import { chooseAutoAssignee } from "./auto-assign";
import { stageIs } from "@/lib/core/stage-sql";
import { OPEN_STAGE } from "@/lib/core/stages";

// The speed-to-lead rule (the agency's rules, lib/rules/agency-rules.ts): a new linked account
// nobody has touched (lib/workflow/first-touch.ts) N minutes after it arrived is handed to the
// next agent by the automatic assignment rules (REASSIGN), or raised to the managers as an alert
// in the queue (RAISE, and REASSIGN when the rules name no one else). It acts once per pull: each
// pull is claimed by setting speed_to_lead_at where it is still null, in the transaction that
// acts, so of several app instances running the job at once exactly one acts, and a failed
// action leaves the claim undone for the next run. Only pulls that arrived after the rule was
// switched on count: switching it on never floods the managers with the back catalogue.

/** Pulls acted on in one run at most; the rest wait for the next minute. */
const BATCH = 100;

export type SpeedToLeadAction = {
  pullId: string;
  action: "REASSIGN" | "RAISE";
  from: string | null;
  to: string | null;
};

type Candidate = { pull_id: string };

/**
 * The new pulls waiting past the rule's time: listed (top-level, not SERVICING, not deleted at
 * the service), successful, WORKING, not archived, untouched and not yet acted on (the partial
 * index pulls_untouched_idx, by arrival), and an account's first pull, not a refresh or
 * reconnect of one the agency already works.
 */
async function findWaiting(db: Db, since: Date, cutoff: Date): Promise<string[]> {
  const rows = await queryRows<Candidate>(
    db,
    sql`select ${pulls.pullId} as pull_id from ${pulls}
        where ${pulls.firstTouchedAt} is null and ${pulls.speedToLeadAt} is null and ${pulls.listed}
          and ${pulls.createdAt} >= ${since.toISOString()}::timestamptz and ${pulls.createdAt} <= ${cutoff.toISOString()}::timestamptz
          and ${stageIs(OPEN_STAGE)} and ${pulls.status} = 'SUCCESS' and not ${pulls.isArchived}
          and (${pulls.accountIdentifier} is null or not ${laterPullOfAccount()})
        order by ${pulls.createdAt}, ${pulls.pullId}
        limit ${BATCH}`,
  );
  return rows.map((r) => r.pull_id);
}

/** The states an account is in, from its stored payload (policies' and addresses'), for the assignment rules. */
const located = z.array(z.object({ state: z.string().nullish() }).loose()).catch([]);
const payloadStates = z
  .object({ policies: located, addresses: located })
  .loose()
  .catch({ policies: [], addresses: [] });
function statesOf(raw: unknown): string[] {
  const { policies, addresses } = payloadStates.parse(raw ?? {});
  const states = [...policies, ...addresses].map((item) => item.state?.trim().toUpperCase() ?? "");
  return [...new Set(states.filter((s) => s !== ""))];
}

async function nameOf(tx: Db, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return user?.name ?? null;
}

/** Claims one waiting pull and acts on it, in one transaction; null when another instance (or a person) got there first. */
async function actOn(
  db: Db,
  pullId: string,
  rules: AgencyRules & { speedToLeadMinutes: number },
  now: Date,
): Promise<SpeedToLeadAction | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(pulls)
      .set({ speedToLeadAt: now })
      .where(
        and(
          eq(pulls.pullId, pullId),
          isNull(pulls.speedToLeadAt),
          isNull(pulls.firstTouchedAt),
          eq(pulls.stage, "WORKING"),
        ),
      )
      .returning({
        assigneeId: pulls.assigneeId,
        createdAt: pulls.createdAt,
        firstName: pulls.firstName,
        lastName: pulls.lastName,
        email: pulls.email,
        accountIdentifier: pulls.accountIdentifier,
        policyTypes: pulls.policyTypes,
      });
    if (!claimed) return null;
    const waited = formatDuration(now.getTime() - claimed.createdAt.getTime(), "long");
    const within = formatDuration(rules.speedToLeadMinutes * 60_000, "long");
    const fromName = await nameOf(tx, claimed.assigneeId);

    if (rules.speedToLeadAction === "REASSIGN") {
      const [row] = await tx.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, pullId));
      const choice = await chooseAutoAssignee(
        tx,
        { pullId, states: statesOf(row?.raw), linesOfBusiness: claimed.policyTypes },
        claimed.assigneeId,
      );
      if (choice) {
        await tx
          .update(pulls)
          .set({ assigneeId: choice.user.id, assignedAt: now, assigneeSeenAt: null })
          .where(eq(pulls.pullId, pullId));
        await enqueueEvent(
          tx,
          "pull.assigned",
          { pull_id: pullId, from_assignee_id: claimed.assigneeId, to_assignee_id: choice.user.id },
          now,
        );
        await recordAudit(tx, null, "SPEED_TO_LEAD", {
          pullId,
          at: now,
          subjectUserId: choice.user.id,
          details: {
            action: "REASSIGN",
            within,
            waited,
            from: claimed.assigneeId,
            fromName,
            to: choice.user.id,
            toName: choice.user.name,
            reason: choice.reason,
          },
        });
        return { pullId, action: "REASSIGN" as const, from: claimed.assigneeId, to: choice.user.id };
      }
    }

    // RAISE, or REASSIGN with no one else to hand it to: the managers decide, from the queue's alerts.
    const holder = [claimed.firstName, claimed.lastName].filter(Boolean).join(" ").trim();
    const whose = holder ? `${holder}'s linked account` : "A linked account";
    const where = fromName ? `assigned to ${fromName}` : "in the queue";
    const nobodyElse =
      rules.speedToLeadAction === "REASSIGN" ? "; the assignment rules name no one else to hand it to" : "";
    const raised = await tx
      .insert(alerts)
      .values({
        key: `SPEED_TO_LEAD:${pullId}`,
        kind: "SPEED_TO_LEAD",
        pullId,
        accountIdentifier: claimed.accountIdentifier,
        holderName: holder || (claimed.email ?? ""),
        headline: `${whose} has waited ${waited} untouched (${where})${nobodyElse}`,
        details: [],
        assigneeId: null,
        createdAt: now,
      })
      .onConflictDoNothing({ target: alerts.key })
      .returning({ id: alerts.id });
    for (const alert of raised)
      await enqueueEvent(
        tx,
        "alert.raised",
        { alert_id: String(alert.id), pull_id: pullId, kind: "SPEED_TO_LEAD" },
        now,
      );
    await recordAudit(tx, null, "SPEED_TO_LEAD", {
      pullId,
      at: now,
      subjectUserId: claimed.assigneeId,
      details: { action: "RAISE", within, waited, from: claimed.assigneeId, fromName, nobodyElse: nobodyElse !== "" },
    });
    return { pullId, action: "RAISE" as const, from: claimed.assigneeId, to: null };
  });
}

/**
 * One run of the rule at `now` (the clock is a parameter so tests can move it): what it did,
 * pull by pull. Off (no wait set, or no moment it was switched on) does nothing.
 */
export async function runSpeedToLead(db: Db, now: Date = new Date()): Promise<SpeedToLeadAction[]> {
  const rules = await getAgencyRules(db);
  const minutes = rules.speedToLeadMinutes;
  if (minutes === null || !rules.speedToLeadSince) return [];
  const cutoff = new Date(now.getTime() - minutes * 60_000);
  const done: SpeedToLeadAction[] = [];
  for (const pullId of await findWaiting(db, rules.speedToLeadSince, cutoff)) {
    try {
      const acted = await actOn(db, pullId, { ...rules, speedToLeadMinutes: minutes }, now);
      if (acted) done.push(acted);
    } catch (error) {
      // One pull that cannot be acted on (a deleted assignee, a database hiccup) must not stop the others.
      console.error(`[speed to lead] ${pullId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return done;
}
