import "server-only";
import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { householdGaps, pulls } from "@/db/schema";
import { qualified } from "@/db/sql";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { crossSellGaps, gapMaskOf } from "./gaps";
import { lockAccountsKeepNewest, newestOfAccount } from "@/lib/pulls/newest-of-account";
import { readingPull } from "@/lib/pulls/account-key";

// Keeps household_gaps in step with the pulls, as policy_xdates is kept (lib/xdates/store.ts):
// one row per household, the account's newest successful top-level pull, written in the
// transaction that stores a pull. A refresh replaces its account's row; a refresh that failed
// leaves the last good one. The book-level cross-sell list then filters and counts this one
// narrow table instead of parsing 100,000 payloads.

type HouseholdRow = typeof householdGaps.$inferInsert;

const isoDay = () => new Date().toISOString().slice(0, 10);

/** The row of one household (its account as stored: lib/pulls/account-key.ts): its lines, carriers and gaps as of `today`. */
export function householdRowOf(pull: Pull, accountIdentifier: string | null, today: string): HouseholdRow {
  const result = crossSellGaps(pull, today);
  return {
    pullId: pull.pull_id,
    accountIdentifier,
    holderName: [pull.first_name, pull.last_name].filter((p) => p && p.trim()).join(" "),
    policyCount: result.policyCount,
    carrierCount: result.carrierCount,
    lines: result.lines,
    gaps: result.gaps.map((g) => g.code),
    gapMask: gapMaskOf(result.gaps.map((g) => g.code)),
    annualPremiumCents: result.annualPremiumCents,
    premiumInPlayCents: result.premiumInPlayCents,
  };
}

/** The same order as the X-dates' (and so the same household): the service's date, then ours. */
const newestOrder = [sql`${pulls.serviceCreatedAt} desc nulls last`, desc(pulls.createdAt), desc(pulls.pullId)];
const lockKey = (account: string) => `household:${account}`;

/**
 * Rewrites the row of the household `pullId` belongs to. `stored` is the pull just stored,
 * already parsed (saves parsing it again when it is the newest).
 */
export async function refreshHouseholdGaps(
  tx: Db,
  pullId: string,
  stored?: { pull: Pull },
  today: string = isoDay(),
): Promise<void> {
  const [self] = await tx
    .select({ accountIdentifier: pulls.accountIdentifier, parentPullId: pulls.parentPullId })
    .from(pulls)
    .where(eq(pulls.pullId, pullId));
  if (!self) return;
  if (self.parentPullId) {
    // Child pulls are internal work: never a household of their own.
    await tx.delete(householdGaps).where(eq(householdGaps.pullId, pullId));
    return;
  }
  const account = self.accountIdentifier;
  // Two refreshes of one account stored at once must not both keep a row.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey(account ?? pullId)}))`);
  const [newest] = await tx
    .select({ pullId: pulls.pullId, raw: pulls.raw })
    .from(pulls)
    .where(
      and(
        account === null ? eq(pulls.pullId, pullId) : eq(pulls.accountIdentifier, account),
        readingPull(),
        eq(pulls.status, "SUCCESS"),
      ),
    )
    .orderBy(...newestOrder)
    .limit(1);
  if (!newest) {
    // Not successful and no successful pull of its account: nothing to list, and no stale row.
    await tx.delete(householdGaps).where(eq(householdGaps.pullId, pullId));
    return;
  }
  let pull: Pull;
  if (stored && newest.pullId === pullId) pull = stored.pull;
  else {
    const parsed = parsePull(newest.raw);
    // The newest no longer parses: its row (if any) stays as it was written.
    if (!parsed.ok) return;
    pull = parsed.pull;
  }
  const row = householdRowOf(pull, account, today);
  if (account !== null)
    await tx
      .delete(householdGaps)
      .where(and(eq(householdGaps.accountIdentifier, account), sql`${householdGaps.pullId} <> ${newest.pullId}`));
  await tx
    .delete(householdGaps)
    .where(and(eq(householdGaps.pullId, pullId), sql`${householdGaps.pullId} <> ${newest.pullId}`));
  await upsert(tx, [row]);
}

async function upsert(db: Db, rows: HouseholdRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(householdGaps)
    .values(rows)
    .onConflictDoUpdate({
      target: householdGaps.pullId,
      set: {
        accountIdentifier: sql`excluded.account_identifier`,
        holderName: sql`excluded.holder_name`,
        policyCount: sql`excluded.policy_count`,
        carrierCount: sql`excluded.carrier_count`,
        lines: sql`excluded.lines`,
        gaps: sql`excluded.gaps`,
        gapMask: sql`excluded.gap_mask`,
        annualPremiumCents: sql`excluded.annual_premium_cents`,
        premiumInPlayCents: sql`excluded.premium_in_play_cents`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Rows for households stored before this table existed (or by a bulk load that bypassed
 * storePull, like the benchmark's seed): every account's newest successful pull without a row
 * gets one, as storePull writes it (a household without policies too: every line is a gap). One pass in batches by pull id; a payload that no longer parses
 * is passed over. Answers how many households were written.
 */
export async function backfillHouseholdGaps(db: Db, batchSize = 500, today: string = isoDay()): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let done = 0;
  for (;;) {
    const batch = await db
      .select({ pullId: pulls.pullId, accountIdentifier: pulls.accountIdentifier, raw: pulls.raw })
      .from(pulls)
      .where(
        and(
          gt(pulls.pullId, after),
          isNull(pulls.parentPullId),
          eq(pulls.status, "SUCCESS"),
          sql`not exists (select 1 from ${householdGaps} h where h.pull_id = ${qualified(pulls, pulls.pullId)})`,
          newestOfAccount,
        ),
      )
      .orderBy(asc(pulls.pullId))
      .limit(batchSize);
    if (batch.length === 0) return done;
    after = batch[batch.length - 1]?.pullId ?? after;
    // One pull per account (two created at the same instant: the last by id).
    const byAccount = new Map(batch.map((row) => [row.accountIdentifier ?? row.pullId, row]));
    const rows = [...byAccount.values()].flatMap((row) => {
      const parsed = parsePull(row.raw);
      return parsed.ok ? [householdRowOf(parsed.pull, row.accountIdentifier, today)] : [];
    });
    if (rows.length === 0) continue;
    done += await db.transaction(async (tx) => {
      const still = await lockAccountsKeepNewest(
        tx,
        [...byAccount.keys()].map(lockKey),
        rows.map((row) => row.pullId),
      );
      const current = rows.filter((row) => still.has(row.pullId));
      const accounts = current.flatMap((row) => (row.accountIdentifier ? [row.accountIdentifier] : []));
      if (accounts.length > 0) await tx.delete(householdGaps).where(inArray(householdGaps.accountIdentifier, accounts));
      for (let i = 0; i < current.length; i += 1_000) await upsert(tx, current.slice(i, i + 1_000));
      return current.length;
    });
  }
}
