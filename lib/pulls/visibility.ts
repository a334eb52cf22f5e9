import "server-only";
import { and, eq, isNull, not, or, sql, type SQL } from "drizzle-orm";
import { pulls } from "@/db/schema";

// The SQL side of the one pull-access rule (lib/auth/permissions.ts, canOnPull): lists, counts
// and the checks of single pulls read the same two facts, so what an agent can open and what
// their queue lists always agree.

/**
 * Whether another top-level pull of the same account is assigned. A monitoring refresh or a
 * reconnect is a new pull of an account someone already holds: unassigned, it is still not
 * new business, so it must not show in anyone's queue nor be claimed for credit.
 */
// The outer row is named in full: drizzle writes a column of a one-table query unqualified,
// which inside the subquery would name the subquery's own row.
export const accountHeld: SQL<boolean> = sql<boolean>`("pulls"."account_identifier" is not null and exists (
  select 1 from pulls held
  where held.account_identifier = "pulls"."account_identifier"
    and held.pull_id <> "pulls"."pull_id"
    and held.parent_pull_id is null
    and held.assignee_id is not null))`;

/** Who is looking: everyone's pulls, or an agent's own plus the truly unassigned queue. */
export type ListViewer = { kind: "all" } | { kind: "own-or-unassigned"; userId: string };

/** Unassigned pulls of accounts nobody holds: the queue anyone may claim from. */
export const inQueue: SQL = and(isNull(pulls.assigneeId), not(accountHeld)) as SQL;

/** The pulls a viewer may see; undefined when they see every pull. */
export function visibleTo(viewer: ListViewer): SQL | undefined {
  return viewer.kind === "all" ? undefined : or(eq(pulls.assigneeId, viewer.userId), inQueue);
}
