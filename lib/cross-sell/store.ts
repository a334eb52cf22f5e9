import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { householdGaps, pulls } from "@/db/schema";
import type { Pull } from "@/lib/service/schemas";
import { crossSellGaps, gapMaskOf } from "./gaps";
import { backfillDerivedRows, refreshDerivedRows, type DerivedRows, type StoredPull } from "@/lib/pulls/derived-rows";

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

/**
 * The pull's assignee and stage, copied onto its household's row so the list applies the access
 * rule and its filters over household_gaps alone; a trigger on pulls keeps them in step (0049).
 */
const copied = { assigneeId: pulls.assigneeId, stage: pulls.stage };

/** household_gaps as a table derived per account (lib/pulls/derived-rows.ts): one row a household. */
const households: DerivedRows<HouseholdRow, typeof copied> = {
  lock: "household",
  table: householdGaps,
  pullId: householdGaps.pullId,
  accountIdentifier: householdGaps.accountIdentifier,
  copied,
  // The newest no longer parses: its row (if any) stays as it was written.
  unparsable: "keep",
  rowsOf: (source, today) => [
    {
      ...householdRowOf(source.pull, source.accountIdentifier, today),
      assigneeId: source.assigneeId,
      stage: source.stage,
    },
  ],
  write: upsert,
};

/**
 * Rewrites the row of the household `pullId` belongs to. `stored` is the pull just stored,
 * already parsed (saves parsing it again when it is the newest).
 */
export function refreshHouseholdGaps(
  tx: Db,
  pullId: string,
  stored?: StoredPull,
  today: string = isoDay(),
): Promise<void> {
  return refreshDerivedRows(tx, households, pullId, today, stored);
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
        assigneeId: sql`excluded.assignee_id`,
        stage: sql`excluded.stage`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Rows for households stored before this table existed (or by a bulk load that bypassed
 * storePull, like the benchmark's seed): every account's newest successful pull without a row
 * gets one, as storePull writes it (a household without policies too: every line is a gap).
 * Answers how many households were written.
 */
export function backfillHouseholdGaps(db: Db, batchSize = 500, today: string = isoDay()): Promise<number> {
  return backfillDerivedRows(db, households, today, batchSize);
}
