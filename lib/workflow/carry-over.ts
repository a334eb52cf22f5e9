import "server-only";
import { and, desc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls, users, type PullStage } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { isDecision } from "@/lib/core/stages";

// A monitoring refresh or a reconnect is a new pull of an account the agency already works:
// it keeps that account's owner, stage and won-premium credit, carried from the account's
// latest earlier pull when it is first stored (in the storing transaction). Without this it
// would arrive unassigned, sit in every agent's queue, and could be claimed for credit.

export type EarlierAccountPull = {
  pullId: string;
  assigneeId: string | null;
  assigneeName: string | null;
  assignedAt: Date | null;
  assigneeSeenAt: Date | null;
  stage: PullStage;
  wonPremiumCents: number | null;
  wonCreditedTo: string | null;
  lostReason: string | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostToPremiumCents: number | null;
  stageChangedAt: Date | null;
};

export type AccountOf = {
  pullId: string;
  accountIdentifier: string | null;
  serviceCreatedAt: Date | null;
  /** The monitoring's first pull, as a webhook about this pull named it (`monitoring.initial_pull_id`). */
  initialPullId?: string | null;
};

/** The account's latest top-level pull created before this one, or null for new business. */
export async function getEarlierAccountPull(tx: Db, of: AccountOf): Promise<EarlierAccountPull | null> {
  const sameAccount: SQL[] = [];
  if (of.accountIdentifier) sameAccount.push(eq(pulls.accountIdentifier, of.accountIdentifier));
  if (of.initialPullId && of.initialPullId !== of.pullId) sameAccount.push(eq(pulls.pullId, of.initialPullId));
  if (sameAccount.length === 0) return null;
  const createdBefore = of.serviceCreatedAt
    ? sql`coalesce(${pulls.serviceCreatedAt}, '-infinity'::timestamptz) <= ${of.serviceCreatedAt.toISOString()}::timestamptz`
    : undefined;
  const [row] = await tx
    .select({
      pullId: pulls.pullId,
      assigneeId: pulls.assigneeId,
      assigneeName: users.name,
      assignedAt: pulls.assignedAt,
      assigneeSeenAt: pulls.assigneeSeenAt,
      stage: pulls.stage,
      wonPremiumCents: pulls.wonPremiumCents,
      wonCreditedTo: pulls.wonCreditedTo,
      lostReason: pulls.lostReason,
      lostCategory: pulls.lostCategory,
      lostToCarrier: pulls.lostToCarrier,
      lostToPremiumCents: pulls.lostToPremiumCents,
      stageChangedAt: pulls.stageChangedAt,
    })
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(and(or(...sameAccount), ne(pulls.pullId, of.pullId), isNull(pulls.parentPullId), createdBefore))
    .orderBy(sql`${pulls.serviceCreatedAt} desc nulls last`, desc(pulls.createdAt), desc(pulls.pullId))
    .limit(1);
  return row ?? null;
}

/**
 * Gives a newly stored refresh its account's owner, stage and credit, and says so in the audit
 * trail (by Coverdesk, naming the pull it came from). Nothing to carry (an unassigned account
 * still WORKING) writes nothing.
 */
export async function carryOverAccount(tx: Db, pullId: string, from: EarlierAccountPull): Promise<boolean> {
  if (from.assigneeId === null && !isDecision(from.stage)) return false;
  await tx
    .update(pulls)
    .set({
      assigneeId: from.assigneeId,
      assignedAt: from.assignedAt,
      assigneeSeenAt: from.assigneeSeenAt,
      stage: from.stage,
      wonPremiumCents: from.wonPremiumCents,
      wonCreditedTo: from.wonCreditedTo,
      lostReason: from.lostReason,
      lostCategory: from.lostCategory,
      lostToCarrier: from.lostToCarrier,
      lostToPremiumCents: from.lostToPremiumCents,
      stageChangedAt: from.stageChangedAt,
      // A decision (won or lost) here is the earlier pull's: the reports count it once, there
      // (isDecisionSql in lib/reports/queries.ts reads the same DECISIONS).
      decisionCarried: isDecision(from.stage),
    })
    .where(eq(pulls.pullId, pullId));
  await recordAudit(tx, null, "PULL_CARRIED_OVER", {
    pullId,
    subjectUserId: from.assigneeId,
    details: {
      fromPullId: from.pullId,
      to: from.assigneeId,
      toName: from.assigneeName,
      stage: from.stage,
      wonPremiumCents: from.wonPremiumCents,
      wonCreditedTo: from.wonCreditedTo,
    },
  });
  return true;
}
