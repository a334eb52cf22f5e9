import "server-only";
import { and, asc, desc, eq, gt, inArray, isNull, or, sql, type GetColumnData, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { qualified } from "@/db/sql";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { readingPull } from "./account-key";
import { lockAccountsKeepNewest, newestOfAccount } from "./newest-of-account";

// The skeleton of a table derived per account from its newest pull (household_gaps for the
// cross-sell list, policy_xdates for the X-dates): an account's rows are those of its newest
// successful top-level reading, rewritten in the transaction that stores a pull (a refresh
// replaces the rows of the pull before it; a refresh that failed leaves the last good ones), and
// backfilled for pulls stored before the table existed. Each feature says only what differs:
// its table, how a pull becomes rows, and how they are written.

/** The pulls columns a feature copies into its rows, read with the newest pull. */
type Copied = Record<string, PgColumn>;

/** The account's newest pull, parsed, with the columns the feature copies. */
export type DerivedSource<C extends Copied = Record<never, PgColumn>> = {
  pullId: string;
  accountIdentifier: string | null;
  raw: unknown;
  pull: Pull;
} & { [K in keyof C]: GetColumnData<C[K]> };

export type DerivedRows<Row, C extends Copied = Record<never, PgColumn>> = {
  /** The advisory lock's namespace: `${lock}:${account}`, taken by storePull and the backfill alike. */
  lock: string;
  /** The derived table, and its columns naming the pull and the account. */
  table: PgTable;
  pullId: PgColumn;
  accountIdentifier: PgColumn;
  /** Columns of `pulls` read with the newest pull and handed to `rowsOf`. */
  copied?: C;
  /** Pulls without rows worth a look in the backfill (besides successful, top-level and newest). */
  backfillOnly?: SQL;
  /** When the newest pull no longer parses: keep the rows as they were written, or drop the account's. */
  unparsable: "keep" | "drop";
  rowsOf(source: DerivedSource<C>, today: string): Row[];
  /** Inserts rows into a table the caller has just cleared of them (at most 1,000 at a time). */
  write(tx: Db, rows: Row[]): Promise<void>;
};

/** The same order everywhere (and so the same household): the service's date, then ours. */
const newestOrder = [sql`${pulls.serviceCreatedAt} desc nulls last`, desc(pulls.createdAt), desc(pulls.pullId)];

const columnsOf = <C extends Copied>(spec: DerivedRows<unknown, C>) => ({
  pullId: pulls.pullId,
  accountIdentifier: pulls.accountIdentifier,
  raw: pulls.raw,
  ...spec.copied,
});

type Read<C extends Copied> = Omit<DerivedSource<C>, "pull">;

/** The pull just stored, already parsed, and where it stands (its account, its parent). */
export type StoredPull = {
  pull: Pull;
  raw?: unknown;
  self?: { accountIdentifier: string | null; parentPullId: string | null };
};

/**
 * Rewrites the rows of the account `pullId` belongs to. `stored` is the pull just stored,
 * already parsed: when it is the account's newest, its payload is not read back (tens of
 * kilobytes to fetch and unseal, for every pull a worker stores), nor its account when given.
 */
export async function refreshDerivedRows<Row, C extends Copied>(
  tx: Db,
  spec: DerivedRows<Row, C>,
  pullId: string,
  today: string,
  stored?: StoredPull,
): Promise<void> {
  const [self] = stored?.self
    ? [stored.self]
    : await tx
        .select({ accountIdentifier: pulls.accountIdentifier, parentPullId: pulls.parentPullId })
        .from(pulls)
        .where(eq(pulls.pullId, pullId));
  if (!self) return;
  if (self.parentPullId) {
    // Child pulls are internal work: never rows of their own.
    await tx.delete(spec.table).where(eq(spec.pullId, pullId));
    return;
  }
  const account = self.accountIdentifier;
  // Two refreshes of one account stored at once must not both keep their rows.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${spec.lock}:${account ?? pullId}`}))`);
  const { raw: rawColumn, ...withoutRaw } = columnsOf(spec);
  const [newest] = (await tx
    .select({
      ...withoutRaw,
      // The payload only of another pull than the one just stored.
      raw: stored
        ? sql`case when ${pulls.pullId} = ${pullId} then null else ${rawColumn} end`.mapWith(rawColumn)
        : rawColumn,
    })
    .from(pulls)
    .where(
      and(
        account === null ? eq(pulls.pullId, pullId) : eq(pulls.accountIdentifier, account),
        readingPull(),
        eq(pulls.status, "SUCCESS"),
      ),
    )
    .orderBy(...newestOrder)
    .limit(1)) as Array<Read<C>>;
  let pull: Pull | null = null;
  let raw = newest?.raw;
  if (newest && stored && newest.pullId === pullId) {
    pull = stored.pull;
    raw = stored.raw ?? (await readRaw(tx, pullId));
  } else if (newest) {
    const parsed = parsePull(newest.raw);
    if (parsed.ok) pull = parsed.pull;
    else if (spec.unparsable === "keep") return;
  }
  // Rows of this pull, and of every other pull of its account, give way to the newest's.
  await tx
    .delete(spec.table)
    .where(
      account === null ? eq(spec.pullId, pullId) : or(eq(spec.accountIdentifier, account), eq(spec.pullId, pullId)),
    );
  if (!newest || !pull) return;
  const rows = spec.rowsOf({ ...newest, raw, pull } as DerivedSource<C>, today);
  if (rows.length > 0) await spec.write(tx, rows);
}

/** A stored pull's payload, for a feature that needs it when the caller did not pass it. */
async function readRaw(tx: Db, pullId: string): Promise<unknown> {
  const [row] = await tx.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, pullId));
  return row?.raw;
}

/**
 * Rows for pulls stored before the table existed (or by a bulk load that bypassed storePull,
 * like the benchmark's seed): every account's newest successful pull without rows gets them,
 * as storePull writes them. One pass in batches by pull id; a payload that no longer parses is
 * passed over. Answers how many accounts were written.
 */
export async function backfillDerivedRows<Row, C extends Copied>(
  db: Db,
  spec: DerivedRows<Row, C>,
  today: string,
  batchSize = 500,
): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let done = 0;
  for (;;) {
    const batch = (await db
      .select(columnsOf(spec))
      .from(pulls)
      .where(
        and(
          gt(pulls.pullId, after),
          isNull(pulls.parentPullId),
          eq(pulls.status, "SUCCESS"),
          spec.backfillOnly,
          sql`not exists (select 1 from ${spec.table} d where d.pull_id = ${qualified(pulls, pulls.pullId)})`,
          newestOfAccount,
        ),
      )
      .orderBy(asc(pulls.pullId))
      .limit(batchSize)) as Array<Read<C>>;
    if (batch.length === 0) return done;
    after = batch[batch.length - 1]?.pullId ?? after;
    // One pull per account (two created at the same instant: the last by id).
    const byAccount = new Map(batch.map((row) => [row.accountIdentifier ?? row.pullId, row]));
    const sources = [...byAccount.values()].flatMap((row) => {
      const parsed = parsePull(row.raw);
      return parsed.ok ? [{ ...row, pull: parsed.pull } as DerivedSource<C>] : [];
    });
    if (sources.length === 0) continue;
    done += await db.transaction(async (tx) => {
      const still = await lockAccountsKeepNewest(
        tx,
        [...byAccount.keys()].map((key) => `${spec.lock}:${key}`),
        sources.map((source) => source.pullId),
      );
      const current = sources.filter((source) => still.has(source.pullId));
      const accounts = current.flatMap((source) => (source.accountIdentifier ? [source.accountIdentifier] : []));
      if (accounts.length > 0) await tx.delete(spec.table).where(inArray(spec.accountIdentifier, accounts));
      const rows = current.flatMap((source) => spec.rowsOf(source, today));
      for (let i = 0; i < rows.length; i += 1_000) await spec.write(tx, rows.slice(i, i + 1_000));
      return current.length;
    });
  }
}
