import "server-only";
import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings, PULL_STAGES, pulls, type PullStage } from "@/db/schema";
import { countPullsUpTo, listedPull } from "@/lib/pulls/queries";
import { inQueue } from "@/lib/pulls/visibility";

// An agent's home: their pulls by stage, and what needs attention first: new assignments,
// policies expiring soon, accounts that need the consumer to reconnect.

const mine = (userId: string) => and(eq(pulls.assigneeId, userId), listedPull);

export async function countNewAssignments(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pulls)
    .where(and(mine(userId), isNull(pulls.assigneeSeenAt)));
  return row?.n ?? 0;
}

export type AttentionRow = {
  pullId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  providerFriendlyName: string | null;
  nextExpiryDate: string | null;
  stage: PullStage;
  assignedAt: Date | null;
};

const attentionColumns = {
  pullId: pulls.pullId,
  firstName: pulls.firstName,
  lastName: pulls.lastName,
  email: pulls.email,
  providerFriendlyName: pulls.providerFriendlyName,
  nextExpiryDate: pulls.nextExpiryDate,
  stage: pulls.stage,
  assignedAt: pulls.assignedAt,
};

// The few monitorings waiting for a reconnect name their pulls and accounts: two sets, each
// hashed once, instead of comparing every monitoring with each of the agent's pulls (1.6 s for
// 10,000 pulls at 100,000 on the shared machine, a nested loop of 3.8 million comparisons).
const waiting = sql`${monitorings.reconnectRequestedAt} is not null`;
const needsReconnect = sql`(${pulls.pullId} in (
    select unnest(array[${monitorings.reconnectPullId}, ${monitorings.latestPullId}, ${monitorings.initialPullId}])
    from ${monitorings} where ${waiting})
  or ${pulls.accountIdentifier} in (
    select ${monitorings.accountIdentifier} from ${monitorings} where ${waiting} and ${monitorings.accountIdentifier} is not null))`;

export async function getAgentHome(db: Db, userId: string, expiringWithinDays = 30) {
  const [byStage, fresh, expiring, reconnect, queue] = await Promise.all([
    db.select({ stage: pulls.stage, n: count() }).from(pulls).where(mine(userId)).groupBy(pulls.stage),
    db
      .select(attentionColumns)
      .from(pulls)
      .where(and(mine(userId), isNull(pulls.assigneeSeenAt)))
      .orderBy(asc(pulls.assignedAt))
      .limit(20),
    db
      .select(attentionColumns)
      .from(pulls)
      .where(
        and(
          mine(userId),
          ne(pulls.stage, "LOST"),
          sql`${pulls.nextExpiryDate} between current_date and current_date + ${expiringWithinDays}::int`,
        ),
      )
      .orderBy(asc(pulls.nextExpiryDate))
      .limit(20),
    db
      .select(attentionColumns)
      .from(pulls)
      .where(and(mine(userId), needsReconnect))
      .limit(20),
    countQueue(db),
  ]);
  const stages = Object.fromEntries(PULL_STAGES.map((stage) => [stage, 0])) as Record<PullStage, number>;
  for (const row of byStage) stages[row.stage] = row.n;
  return { stages, fresh, expiring, reconnect, queue: queue.total, queueCapped: queue.capped };
}

/**
 * The home page counts the unassigned queue up to this many and then says "1,000+". An exact
 * figure asks of every unassigned pull whether its account is held by someone: at 100,000 pulls,
 * 20,000 look-ups and a quarter of a second on each visit, for a number nobody works through.
 */
export const QUEUE_COUNT_CAP = 1_000;

/** The unassigned queue's size, counted up to `cap`; `capped` when there are more. */
export function countQueue(db: Db, cap = QUEUE_COUNT_CAP): Promise<{ total: number; capped: boolean }> {
  return countPullsUpTo(db, and(inQueue, listedPull, eq(pulls.isArchived, false)), cap);
}
