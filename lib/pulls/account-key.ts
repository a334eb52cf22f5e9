import "server-only";
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { monitorings, pulls } from "@/db/schema";
import { qualified } from "@/db/sql";
import { isReadingType, READING_TYPE } from "./pull-types";

// Which account a pull belongs to. Only readings (PULLING_DATA pulls, lib/pulls/pull-types.ts)
// share an account's identity: its newest one gives the household's policies,
// X-dates, cross-sell gaps, refresh timing and alerts. A SERVICING, DOCUMENT_UPLOAD,
// DOCUMENT_PARSING, MANUAL_ENTRY, POLICY_LOOKUP, AGENT or CONTACT_ME pull is kept and shown as
// what it is, under no account. The real service's pulls often omit the identifier (its
// webhooks carry it), so a reading without one is joined to its account through what the
// worker knows: the monitoring's initial pull, the webhook's identifier, a monitoring already
// linked to the pull. `pulls.account_identifier` holds the account so found.

/** On a row of `pulls` (or its alias): a reading of its account, top-level and not deleted at the service. */
export function readingPull(alias: string | typeof pulls = pulls): SQL {
  const c = (column: Parameters<typeof qualified>[1]) => qualified(alias, column);
  return sql`(${c(pulls.type)} is null or ${c(pulls.type)} = ${sql.raw(`'${READING_TYPE}'`)}) and ${c(pulls.parentPullId)} is null and ${c(pulls.deletedAt)} is null`;
}

export type AccountClues = {
  pullId: string;
  type: string | null;
  /** The pull's own `account_identifier`. */
  own: string | null;
  /** The account this pull was stored under before, if it was. */
  stored: string | null;
  /** `account_identifier` of a webhook about this pull. */
  webhookAccount?: string | null;
  /** `monitoring.initial_pull_id` of a webhook about this pull. */
  initialPullId?: string | null;
};

export type AccountKey = {
  key: string | null;
  /** The monitoring's initial pull, stored alone (no account), which must be re-keyed to `key` too. */
  rekeyInitial: string | null;
};

/**
 * The account of a pull, from the most to the least certain clue: the pull's own identifier;
 * the account of the monitoring's initial pull; the webhook's identifier; the account the pull
 * was stored under; a monitoring already linked to it. The monitoring's initial pull, when
 * stored alone (read by the sync before any webhook named it), joins the account so found;
 * when nothing names one, the account is named after that initial pull. Null: the pull stands
 * alone. Asks the database only for a reading without an identifier of its own.
 */
export async function resolveAccountKey(tx: Db, clues: AccountClues): Promise<AccountKey> {
  if (!isReadingType(clues.type)) return { key: null, rekeyInitial: null };
  if (clues.own) return { key: clues.own, rekeyInitial: null };
  const [linked] = clues.initialPullId
    ? []
    : await tx
        .select({ account: monitorings.accountIdentifier, initialPullId: monitorings.initialPullId })
        .from(monitorings)
        .where(or(eq(monitorings.latestPullId, clues.pullId), eq(monitorings.initialPullId, clues.pullId)))
        .limit(1);
  const initialPullId = clues.initialPullId ?? linked?.initialPullId ?? null;
  const [initial] =
    initialPullId && initialPullId !== clues.pullId
      ? await tx
          .select({ account: pulls.accountIdentifier })
          .from(pulls)
          .where(and(eq(pulls.pullId, initialPullId), readingPull()))
          .limit(1)
      : [];
  const key = initial?.account || clues.webhookAccount || clues.stored || linked?.account || null;
  const rekeyInitial = initial && !initial.account && initialPullId ? initialPullId : null;
  if (key) return { key, rekeyInitial };
  if (rekeyInitial) return { key: rekeyInitial, rekeyInitial };
  return { key: null, rekeyInitial: null };
}

/** Joins a standalone initial pull to `account` (see resolveAccountKey); false when it already had one. */
export async function rekeyInitialPull(tx: Db, initialPullId: string, account: string): Promise<boolean> {
  const rows = await tx
    .update(pulls)
    .set({ accountIdentifier: account })
    .where(and(eq(pulls.pullId, initialPullId), isNull(pulls.accountIdentifier)))
    .returning({ pullId: pulls.pullId });
  return rows.length > 0;
}
