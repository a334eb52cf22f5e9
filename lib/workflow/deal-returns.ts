import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { dealReturns, policyXDates, pulls, users } from "@/db/schema";
import { queryRows } from "@/db/connect";
import { qualified } from "@/db/sql";
import { annualPremiumOf, householdOf } from "@/lib/pulls/household";
import { getAgencyRules } from "@/lib/rules/agency-rules";
import { parsePull } from "@/lib/service/schemas";
import { recordAudit } from "@/lib/audit/audit-log";
import { recycledHeadline, recycledKey, type DealReturnKind } from "./deal-return-words";
import { stageIs } from "@/lib/core/stage-sql";
import { LOSS_STAGE } from "@/lib/core/stages";

// Deals that come back on their own. RECYCLED: a LOST account whose verified X-date comes
// within the agency's lead time goes back to WORKING, for its agent (or the queue when that
// agent has left), with why it was lost and what it cost then copied beside it. WIN_BACK (a won
// client's refresh shows the policy gone) is detected where the refresh is stored
// (./win-back.ts) and comes back through the same `returnDeal`.
//
// Once only, however often and on however many instances the job runs: each return has a key
// (account and X-date), inserted with `on conflict do nothing`, and the pull changes only when
// that insert happened, in the same transaction as the audit entry.

export type ReturnDealInput = {
  key: string;
  kind: DealReturnKind;
  pullId: string;
  accountIdentifier: string | null;
  xDate: string | null;
  carrierLabel: string | null;
  policyType: string | null;
  /** Whoever had the pull: it goes back to them while they are active, else to the queue. */
  previousAssigneeId: string | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostReason: string | null;
  premiumThenCents: number | null;
  renewalPremiumCents: number | null;
  headline: string;
  at: Date;
};

/**
 * Writes the return and sends the pull back to WORKING, in the caller's transaction (the pull
 * locked by it). False when the key was already taken: nothing then changes.
 */
export async function returnDeal(tx: Db, input: ReturnDealInput): Promise<boolean> {
  const [agent] = input.previousAssigneeId
    ? await tx
        .select({ id: users.id, name: users.name, isActive: users.isActive })
        .from(users)
        .where(eq(users.id, input.previousAssigneeId))
    : [];
  const assignee = agent?.isActive ? agent : null;
  const { at, ...row } = input;
  const inserted = await tx
    .insert(dealReturns)
    .values({ ...row, assigneeId: assignee?.id ?? null, returnedAt: at })
    .onConflictDoNothing({ target: dealReturns.key })
    .returning({ id: dealReturns.id });
  if (inserted.length === 0) return false;
  const [before] = await tx
    .select({ stage: pulls.stage, assigneeId: pulls.assigneeId })
    .from(pulls)
    .where(eq(pulls.pullId, input.pullId));
  // Other systems hear of the move back to WORKING and of its owner (lib/webhooks/events.ts).
  if (before && before.stage !== "WORKING")
    await enqueueEvent(
      tx,
      "pull.stage_changed",
      { pull_id: input.pullId, from_stage: before.stage, to_stage: "WORKING", won_premium_cents: null },
      at,
    );
  if (before && before.assigneeId !== (assignee?.id ?? null))
    await enqueueEvent(
      tx,
      "pull.assigned",
      { pull_id: input.pullId, from_assignee_id: before.assigneeId, to_assignee_id: assignee?.id ?? null },
      at,
    );
  await tx
    .update(pulls)
    .set({
      stage: "WORKING",
      assigneeId: assignee?.id ?? null,
      // Back with its agent, it is news to them (the "new for you" list and the menu's badge).
      ...(assignee ? {} : { assignedAt: null }),
      assigneeSeenAt: null,
      wonPremiumCents: null,
      wonCreditedTo: null,
      lostReason: null,
      lostCategory: null,
      lostToCarrier: null,
      lostToPremiumCents: null,
      stageChangedAt: at,
      // Its own stage now: the earlier decision stays counted where it was made.
      decisionCarried: false,
    })
    .where(eq(pulls.pullId, input.pullId));
  // To the queue: an earlier pull of the account still held by the agent who left would keep it
  // "held" (lib/pulls/visibility.ts), hiding the returned deal from every agent. Those go too.
  const released =
    !assignee && input.accountIdentifier
      ? await tx
          .update(pulls)
          .set({ assigneeId: null, assignedAt: null })
          .where(
            and(
              eq(pulls.accountIdentifier, input.accountIdentifier),
              ne(pulls.pullId, input.pullId),
              isNull(pulls.parentPullId),
              sql`${pulls.assigneeId} in (select ${users.id} from ${users} where not ${users.isActive})`,
            ),
          )
          .returning({ pullId: pulls.pullId })
      : [];
  await recordAudit(tx, null, "DEAL_RETURNED", {
    pullId: input.pullId,
    subjectUserId: assignee?.id ?? null,
    at,
    details: {
      kind: input.kind,
      key: input.key,
      headline: input.headline,
      to: assignee?.id ?? null,
      toName: assignee?.name ?? null,
      from: input.previousAssigneeId,
      fromName: agent?.name ?? null,
      ...(released.length > 0 ? { releasedPullIds: released.map((r) => r.pullId) } : {}),
    },
  });
  return true;
}

const optionsSchema = z.object({
  today: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    .optional(),
  now: z
    .date()
    .refine((d) => !Number.isNaN(d.getTime()))
    .optional(),
  leadTimeDays: z.number().int().min(1).max(365).optional(),
});
export type RecycleOptions = z.input<typeof optionsSchema>;

type Candidate = {
  x_pull_id: string;
  policy_id: string;
  account_identifier: string | null;
  x_date: string;
  carrier_label: string | null;
  policy_type: string | null;
  annual_premium_cents: number | string | null;
  target: string;
};

const BATCH = 200;
const x = "x";
const t = "t";

/**
 * The LOST accounts whose X-date falls between `today` and `today + lead`: one row per
 * account (its soonest X-date, the largest premium of the day first). The account's newest
 * pull must be LOST, and the X-date must have been beyond the lead time when the deal was lost:
 * a deal lost ten days before its X-date was lost knowing it, and is not news.
 */
async function findCandidates(db: Db, today: string, lead: number): Promise<Candidate[]> {
  return queryRows<Candidate>(
    db,
    sql`select distinct on (coalesce(${qualified(x, policyXDates.accountIdentifier)}, ${qualified(x, policyXDates.pullId)}::text))
          ${qualified(x, policyXDates.pullId)} as x_pull_id, ${qualified(x, policyXDates.policyId)} as policy_id,
          ${qualified(x, policyXDates.accountIdentifier)} as account_identifier, ${qualified(x, policyXDates.xDate)}::text as x_date,
          ${qualified(x, policyXDates.carrierLabel)} as carrier_label, ${qualified(x, policyXDates.policyType)} as policy_type,
          ${qualified(x, policyXDates.annualPremiumCents)}::float8 as annual_premium_cents, ${qualified(t, pulls.pullId)} as target
        from ${policyXDates} ${sql.identifier(x)}
        cross join lateral (
          select ${qualified(t, pulls.pullId)}, ${qualified(t, pulls.stage)}, ${qualified(t, pulls.stageChangedAt)}
          from ${pulls} ${sql.identifier(t)}
          where ${qualified(t, pulls.parentPullId)} is null
            and (case when ${qualified(x, policyXDates.accountIdentifier)} is null then ${qualified(t, pulls.pullId)} = ${qualified(x, policyXDates.pullId)}
                      else ${qualified(t, pulls.accountIdentifier)} = ${qualified(x, policyXDates.accountIdentifier)} end)
          order by ${qualified(t, pulls.serviceCreatedAt)} desc nulls last, ${qualified(t, pulls.createdAt)} desc, ${qualified(t, pulls.pullId)} desc
          limit 1) ${sql.identifier(t)}
        where ${qualified(x, policyXDates.xDate)} is not null
          and ${qualified(x, policyXDates.xDate)} between ${today}::date and ${today}::date + ${lead}::int
          and ${stageIs(LOSS_STAGE, qualified(x, policyXDates.stage))}
          and ${stageIs(LOSS_STAGE, qualified(t, pulls.stage))}
          and (${qualified(t, pulls.stageChangedAt)} is null
               or ${qualified(x, policyXDates.xDate)} > (${qualified(t, pulls.stageChangedAt)} at time zone 'UTC')::date + ${lead}::int)
        order by coalesce(${qualified(x, policyXDates.accountIdentifier)}, ${qualified(x, policyXDates.pullId)}::text),
          ${qualified(x, policyXDates.xDate)}, ${qualified(x, policyXDates.annualPremiumCents)} desc nulls last, ${qualified(x, policyXDates.policyId)}
        limit ${BATCH}`,
  );
}

const policyKeyOf = (p: { carrier_policy_number: string | null; policy_id: string }) =>
  p.carrier_policy_number ?? p.policy_id;

/** One candidate, in its own transaction: re-checked under the pull's lock, then returned once. */
async function recycleOne(db: Db, c: Candidate, today: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({
        pullId: pulls.pullId,
        stage: pulls.stage,
        assigneeId: pulls.assigneeId,
        accountIdentifier: pulls.accountIdentifier,
        decisionCarried: pulls.decisionCarried,
        stageChangedAt: pulls.stageChangedAt,
        lostCategory: pulls.lostCategory,
        lostToCarrier: pulls.lostToCarrier,
        lostToPremiumCents: pulls.lostToPremiumCents,
        lostReason: pulls.lostReason,
        raw: pulls.raw,
      })
      .from(pulls)
      .where(eq(pulls.pullId, c.target))
      .for("update");
    if (!target || target.stage !== "LOST") return false;
    // The pull the loss was decided on (a refresh carries the decision of an earlier pull):
    // what the household paid then is read from it.
    const decided =
      target.decisionCarried && target.accountIdentifier
        ? ((
            await tx
              .select({ pullId: pulls.pullId, raw: pulls.raw })
              .from(pulls)
              .where(
                and(
                  eq(pulls.accountIdentifier, target.accountIdentifier),
                  isNull(pulls.parentPullId),
                  ne(pulls.pullId, target.pullId),
                  eq(pulls.stage, "LOST"),
                  eq(pulls.decisionCarried, false),
                  target.stageChangedAt ? eq(pulls.stageChangedAt, target.stageChangedAt) : undefined,
                ),
              )
              .orderBy(desc(pulls.createdAt))
              .limit(1)
          )[0] ?? target)
        : target;
    const then = parsePull(decided.raw);
    const premiumThenCents =
      target.lostToPremiumCents ?? (then.ok ? householdOf(then.pull).totalAnnualCents : null) ?? null;
    // A renewal premium only when a refresh since the loss has seen one that differs.
    const xPremium = c.annual_premium_cents === null ? null : Number(c.annual_premium_cents);
    let renewalPremiumCents: number | null = null;
    if (c.x_pull_id !== decided.pullId && xPremium !== null && xPremium > 0) {
      const [row] = await tx
        .select({ number: policyXDates.carrierPolicyNumber })
        .from(policyXDates)
        .where(and(eq(policyXDates.pullId, c.x_pull_id), eq(policyXDates.policyId, c.policy_id)));
      const key = row?.number ?? c.policy_id;
      const before = then.ok ? then.pull.policies.find((p) => policyKeyOf(p) === key) : undefined;
      const beforeCents = before ? annualPremiumOf(before) : null;
      if (beforeCents !== xPremium) renewalPremiumCents = xPremium;
    }
    return returnDeal(tx, {
      key: recycledKey(target.accountIdentifier ?? target.pullId, c.x_date),
      kind: "RECYCLED",
      pullId: target.pullId,
      accountIdentifier: target.accountIdentifier,
      xDate: c.x_date,
      carrierLabel: c.carrier_label,
      policyType: c.policy_type,
      previousAssigneeId: target.assigneeId,
      lostCategory: target.lostCategory,
      lostToCarrier: target.lostToCarrier,
      lostReason: target.lostReason,
      premiumThenCents,
      renewalPremiumCents,
      headline: recycledHeadline({
        lostAt: target.stageChangedAt,
        lostCategory: target.lostCategory,
        lostToCarrier: target.lostToCarrier,
        premiumThenCents,
        carrierLabel: c.carrier_label,
        policyType: c.policy_type,
        xDate: c.x_date,
        renewalPremiumCents,
        today,
      }),
      at: now,
    });
  });
}

/**
 * The RECYCLED scan: every LOST account whose X-date came within the lead time goes back to
 * WORKING. Answers how many came back this run (0 when the options are not sensible: a job
 * must not fail the process over a bad date).
 */
export async function returnRecycledDeals(db: Db, options: RecycleOptions = {}): Promise<number> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) return 0;
  const now = parsed.data.now ?? new Date();
  const today = parsed.data.today ?? now.toISOString().slice(0, 10);
  const lead = parsed.data.leadTimeDays ?? (await getAgencyRules(db)).leadTimeDays;
  let returned = 0;
  for (;;) {
    const candidates = await findCandidates(db, today, lead);
    let batch = 0;
    for (const candidate of candidates) if (await recycleOne(db, candidate, today, now)) batch++;
    returned += batch;
    // Each one returned leaves the scan's range; a full batch that returned nothing (another
    // instance took them) is not read again.
    if (candidates.length < BATCH || batch === 0) return returned;
  }
}
