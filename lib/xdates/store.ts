import "server-only";
import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { policyXDates, pulls } from "@/db/schema";
import { qualified } from "@/db/sql";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { isoDay } from "./derive";
import { xdateRowsOf } from "./rows";
import { lockAccountsKeepNewest, newestOfAccount } from "@/lib/pulls/newest-of-account";
import { readingPull } from "@/lib/pulls/account-key";

// Keeps policy_xdates in step with the pulls: called in the transaction that stores a pull
// (lib/ingest/store-pull.ts), so the X-dates change with the data they come from. An account's
// X-dates are those of its newest successful top-level pull: a monitoring refresh replaces the
// rows of the pull before it (nothing counts twice), and a refresh that failed (the consumer
// must reconnect) leaves the last good ones in place.

type Newest = { pullId: string; raw: unknown };

const newestOrder = [sql`${pulls.serviceCreatedAt} desc nulls last`, desc(pulls.createdAt), desc(pulls.pullId)];

/** The account's newest successful reading (the pull itself, if a reading, when it has no account). */
async function newestSuccessful(tx: Db, pullId: string, accountIdentifier: string | null): Promise<Newest | null> {
  const [row] = await tx
    .select({ pullId: pulls.pullId, raw: pulls.raw })
    .from(pulls)
    .where(
      and(
        accountIdentifier === null ? eq(pulls.pullId, pullId) : eq(pulls.accountIdentifier, accountIdentifier),
        readingPull(),
        eq(pulls.status, "SUCCESS"),
      ),
    )
    .orderBy(...newestOrder)
    .limit(1);
  return row ?? null;
}

/**
 * Rewrites the X-dates of the account `pullId` belongs to. `stored` is the pull just stored,
 * already parsed (saves parsing it again when it is the newest).
 */
export async function refreshAccountXDates(
  tx: Db,
  pullId: string,
  stored?: { pull: Pull; raw: unknown },
  today: string = isoDay(),
): Promise<void> {
  const [self] = await tx
    .select({ accountIdentifier: pulls.accountIdentifier, parentPullId: pulls.parentPullId })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!self) return;
  if (self.parentPullId) {
    // Child pulls are never listed: they hold no X-dates of their own.
    await tx.delete(policyXDates).where(eq(policyXDates.pullId, pullId));
    return;
  }
  const account = self.accountIdentifier;
  // Two refreshes of one account stored at once must not both keep their rows.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`xdates:${account ?? pullId}`}))`);
  const newest = await newestSuccessful(tx, pullId, account);
  // Rows of this pull, and of every other pull of its account, give way to the newest's.
  await tx
    .delete(policyXDates)
    .where(account === null ? eq(policyXDates.pullId, pullId) : eq(policyXDates.accountIdentifier, account));
  if (account !== null) await tx.delete(policyXDates).where(eq(policyXDates.pullId, pullId));
  if (!newest) return;
  let pull: Pull;
  let raw: unknown;
  if (stored && newest.pullId === pullId) {
    ({ pull, raw } = stored);
  } else {
    const parsed = parsePull(newest.raw);
    if (!parsed.ok) return;
    pull = parsed.pull;
    raw = newest.raw;
  }
  await insertRows(tx, newest.pullId, account, xdateRowsOf(pull, raw, today));
}

async function insertRows(
  tx: Db,
  pullId: string,
  accountIdentifier: string | null,
  rows: ReturnType<typeof xdateRowsOf>,
): Promise<void> {
  if (rows.length === 0) return;
  const [owner] = await tx
    .select({ assigneeId: pulls.assigneeId, stage: pulls.stage, publicAlias: pulls.publicAlias })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!owner) return;
  await tx
    .insert(policyXDates)
    .values(rows.map((row) => ({ ...row, pullId, accountIdentifier, ...owner })))
    .onConflictDoNothing();
}

/**
 * X-dates for pulls stored before this table existed (or by a bulk load that bypassed
 * storePull, like the benchmark's seed): every account's newest successful pull without rows
 * gets them. One pass in batches by pull id, three statements a batch; a pull whose payload no
 * longer parses is passed over.
 */
export async function backfillXDates(db: Db, batchSize = 500, today: string = isoDay()): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let done = 0;
  for (;;) {
    const batch = await db
      .select({
        pullId: pulls.pullId,
        accountIdentifier: pulls.accountIdentifier,
        raw: pulls.raw,
        assigneeId: pulls.assigneeId,
        stage: pulls.stage,
        publicAlias: pulls.publicAlias,
      })
      .from(pulls)
      .where(
        and(
          gt(pulls.pullId, after),
          isNull(pulls.parentPullId),
          eq(pulls.status, "SUCCESS"),
          gt(pulls.policyCount, 0),
          sql`not exists (select 1 from ${policyXDates} x where x.pull_id = ${qualified(pulls, pulls.pullId)})`,
          newestOfAccount,
        ),
      )
      .orderBy(asc(pulls.pullId))
      .limit(batchSize);
    if (batch.length === 0) return done;
    after = batch[batch.length - 1]?.pullId ?? after;
    // One pull per account (two created at the same instant: the last by id).
    const byAccount = new Map(batch.map((row) => [row.accountIdentifier ?? row.pullId, row]));
    const values = [...byAccount.values()].flatMap((row) => {
      const parsed = parsePull(row.raw);
      if (!parsed.ok) return [];
      const { raw: _raw, ...owner } = row;
      return xdateRowsOf(parsed.pull, row.raw, today).map((x) => ({ ...x, ...owner }));
    });
    const accounts = [...byAccount.values()].flatMap((row) => (row.accountIdentifier ? [row.accountIdentifier] : []));
    await db.transaction(async (tx) => {
      const still = await lockAccountsKeepNewest(
        tx,
        [...byAccount.keys()].map((key) => `xdates:${key}`),
        [...byAccount.values()].map((row) => row.pullId),
      );
      const current = values.filter((row) => still.has(row.pullId));
      const held = accounts.filter((account) => current.some((row) => row.accountIdentifier === account));
      if (held.length > 0) await tx.delete(policyXDates).where(inArray(policyXDates.accountIdentifier, held));
      for (let i = 0; i < current.length; i += 1_000)
        await tx
          .insert(policyXDates)
          .values(current.slice(i, i + 1_000))
          .onConflictDoNothing();
    });
    done += byAccount.size;
  }
}
