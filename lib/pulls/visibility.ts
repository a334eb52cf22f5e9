import "server-only";
import { and, asc, eq, isNull, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls, users } from "@/db/schema";
import { qualified } from "@/db/sql";

// The SQL side of the one pull-access rule (lib/auth/permissions.ts, canOnPull): lists, counts
// and the checks of single pulls read the same two facts, so what an agent can open and what
// their queue lists always agree.

/**
 * Whether another top-level pull of the same account is assigned. A monitoring refresh or a
 * reconnect is a new pull of an account someone already holds: unassigned, it is still not
 * new business, so it must not show in anyone's queue nor be claimed for credit.
 */
// Every column is named with its table or alias (db/sql.ts `qualified`): drizzle writes a column
// of a one-table select list unqualified, which inside the subquery would name its own row.
const held = "held";
export const accountHeld: SQL<boolean> = sql<boolean>`(${qualified(pulls, pulls.accountIdentifier)} is not null and exists (
  select 1 from ${pulls} ${sql.identifier(held)}
  where ${qualified(held, pulls.accountIdentifier)} = ${qualified(pulls, pulls.accountIdentifier)}
    and ${qualified(held, pulls.pullId)} <> ${qualified(pulls, pulls.pullId)}
    and ${qualified(held, pulls.parentPullId)} is null
    and ${qualified(held, pulls.assigneeId)} is not null))`;

/** Who is looking: everyone's pulls, or an agent's own plus the truly unassigned queue. */
export type ListViewer = { kind: "all" } | { kind: "own-or-unassigned"; userId: string };

/** Unassigned pulls of accounts nobody holds: the queue anyone may claim from. */
export const inQueue: SQL = and(isNull(pulls.assigneeId), not(accountHeld)) as SQL;

/** The pulls a viewer may see; undefined when they see every pull. */
export function visibleTo(viewer: ListViewer): SQL | undefined {
  return viewer.kind === "all" ? undefined : or(eq(pulls.assigneeId, viewer.userId), inQueue);
}

/**
 * The agent filter's choices on a list filtered by this rule (cross-sell, X-dates): every active
 * user for those who see all, else only oneself.
 */
export function listAgentChoices(db: Db, viewer: ListViewer): Promise<Array<{ id: string; name: string }>> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.isActive, true), viewer.kind === "all" ? undefined : eq(users.id, viewer.userId)))
    .orderBy(asc(users.name));
}
