import "server-only";
import { and, asc, eq, isNull, not, or, sql, type Column, type SQL, type Table } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls, users } from "@/db/schema";
import { qualified } from "@/db/sql";
import type { ViewScope } from "@/lib/auth/permissions";

// The SQL side of the one pull-access rule (lib/auth/permissions.ts, canOnPull): lists, counts
// and the checks of single pulls read the same two facts, so what an agent can open and what
// their queue lists always agree.

/** A table holding a pull's rows with the pull's assignee, office and account copied onto them (pulls itself, policy_xdates). */
export type PullCopy = {
  table: Table;
  pullId: Column;
  assigneeId: Column;
  officeId: Column;
  accountIdentifier: Column;
};

/**
 * Whether another top-level pull of the same account as the row's is assigned. A monitoring
 * refresh or a reconnect is a new pull of an account someone already holds: unassigned, it is
 * still not new business, so it must not show in anyone's queue nor be claimed for credit.
 */
// Every column is named with its table or alias (db/sql.ts `qualified`): drizzle writes a column
// of a one-table select list unqualified, which inside the subquery would name its own row.
function heldOf(row: PullCopy): SQL<boolean> {
  const held = "held";
  const account = qualified(row.table, row.accountIdentifier);
  return sql<boolean>`(${account} is not null and exists (
  select 1 from ${pulls} ${sql.identifier(held)}
  where ${qualified(held, pulls.accountIdentifier)} = ${account}
    and ${qualified(held, pulls.pullId)} <> ${qualified(row.table, row.pullId)}
    and ${qualified(held, pulls.parentPullId)} is null
    and ${qualified(held, pulls.assigneeId)} is not null))`;
}

const PULL_ROW: PullCopy = {
  table: pulls,
  pullId: pulls.pullId,
  assigneeId: pulls.assigneeId,
  officeId: pulls.officeId,
  accountIdentifier: pulls.accountIdentifier,
};

export const accountHeld: SQL<boolean> = heldOf(PULL_ROW);

/**
 * Who is looking (lib/auth/permissions.ts `viewScope`): everyone's pulls, a manager's office
 * (its pulls and the agency-wide queue), or an agent's own plus the truly unassigned queue of
 * their office and of the agency.
 */
export type ListViewer = ViewScope;

/** Unassigned rows of accounts nobody holds: the queue anyone may claim from. */
const inQueueOf = (row: PullCopy): SQL => and(isNull(row.assigneeId), not(heldOf(row))) as SQL;

export const inQueue: SQL = inQueueOf(PULL_ROW);

/** Rows of the office, or agency-wide (no office): what a user of that office may reach. */
const inReachOf = (row: PullCopy, officeId: string): SQL => or(isNull(row.officeId), eq(row.officeId, officeId)) as SQL;

/**
 * The rows a viewer may see, in any table that copies the pull's assignee and account (the X-date
 * list reads policy_xdates alone): the one rule, whatever table it is asked of. Undefined when
 * the viewer sees every row.
 */
export function visibleRowsOf(viewer: ListViewer, row: PullCopy): SQL | undefined {
  switch (viewer.kind) {
    case "all":
      return undefined;
    case "office":
      return or(eq(row.officeId, viewer.officeId), and(isNull(row.officeId), isNull(row.assigneeId)));
    case "own-or-unassigned": {
      const queue = viewer.officeId ? and(inQueueOf(row), inReachOf(row, viewer.officeId)) : inQueueOf(row);
      return or(eq(row.assigneeId, viewer.userId), queue);
    }
  }
}

/** The pulls a viewer may see; undefined when they see every pull. */
export function visibleTo(viewer: ListViewer): SQL | undefined {
  return visibleRowsOf(viewer, PULL_ROW);
}

/** The users a viewer may pick among (an agent filter, an assignee): everyone, their office's, or themselves. */
export function choosableUsers(viewer: ListViewer): SQL | undefined {
  switch (viewer.kind) {
    case "all":
      return undefined;
    case "office":
      return eq(users.officeId, viewer.officeId);
    case "own-or-unassigned":
      return eq(users.id, viewer.userId);
  }
}

/**
 * The agent filter's choices on a list filtered by this rule (cross-sell, X-dates): every active
 * user for those who see all, the office's for a manager of one, else only oneself.
 */
export function listAgentChoices(db: Db, viewer: ListViewer): Promise<Array<{ id: string; name: string }>> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.isActive, true), choosableUsers(viewer)))
    .orderBy(asc(users.name));
}
