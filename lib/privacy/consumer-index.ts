import "server-only";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { consumerIndex, pulls } from "@/db/schema";
import { blindIndex, type IndexKind } from "@/lib/security/blind-index";
import { parsePull, type Pull } from "@/lib/service/schemas";

// A stored pull's blind index: what the request desk searches by (email, phone, name, date of
// birth), as keyed hashes only. Rewritten whenever the pull is stored, so it follows the newest
// payload; removed with the pull (the foreign key cascades).

export type IndexEntry = { kind: IndexKind; hash: string };

function entry(kind: IndexKind, value: string | null | undefined): IndexEntry | null {
  const hash = blindIndex(kind, value);
  return hash ? { kind, hash } : null;
}

/** The full name as a person would type it: first and last (a middle name is left out). */
export function fullNameOf(first: string | null | undefined, last: string | null | undefined): string | null {
  const name = [first, last].filter((part) => part && part.trim() !== "").join(" ");
  return name === "" ? null : name;
}

/** The index entries of one pull: its own contact details, its drivers' names and dates of birth, its VINs, its account. */
export function indexEntriesOf(pull: Pull, accountKey: string | null): IndexEntry[] {
  const entries: (IndexEntry | null)[] = [
    entry("email", pull.email),
    entry("email", pull.account_email),
    entry("phone", pull.phone),
    entry("phone", pull.mobile_phone),
    entry("phone", pull.home_phone),
    entry("phone", pull.work_phone),
    entry("name", fullNameOf(pull.first_name, pull.last_name)),
    entry("account", accountKey),
  ];
  for (const driver of pull.drivers) {
    entries.push(entry("name", fullNameOf(driver.first_name, driver.last_name)));
    entries.push(entry("birth-date", driver.date_of_birth_str));
  }
  for (const policy of pull.policies) for (const vehicle of policy.vehicles) entries.push(entry("vin", vehicle.vin));
  const unique = new Map<string, IndexEntry>();
  for (const e of entries) if (e) unique.set(`${e.kind}:${e.hash}`, e);
  return [...unique.values()];
}

/** Replaces a pull's index entries (inside the transaction that stores it). */
/** `fresh`: the pull's row was inserted in this transaction, so it has no index rows to clear. */
export async function writeConsumerIndex(
  db: Db,
  pullId: string,
  entries: IndexEntry[],
  options: { fresh?: boolean } = {},
): Promise<void> {
  if (!options.fresh) await db.delete(consumerIndex).where(eq(consumerIndex.pullId, pullId));
  if (entries.length > 0) await db.insert(consumerIndex).values(entries.map((e) => ({ pullId, ...e })));
}

/**
 * Indexes the pulls stored before the index existed (or whose index is missing), in batches;
 * answers how many were indexed. Run at start by the X-date upkeep's backfill (lib/jobs/catalog.ts).
 */
export async function backfillConsumerIndex(db: Db, batchSize = 500): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let done = 0;
  for (;;) {
    const batch = await db
      .select({ pullId: pulls.pullId, raw: pulls.raw, account: pulls.accountIdentifier })
      .from(pulls)
      .where(
        and(
          gt(pulls.pullId, after),
          sql`not exists (select 1 from ${consumerIndex} c where c.pull_id = ${pulls.pullId})`,
        ),
      )
      .orderBy(asc(pulls.pullId))
      .limit(batchSize);
    if (batch.length === 0) return done;
    after = batch[batch.length - 1]?.pullId ?? after;
    await db.transaction(async (tx) => {
      for (const row of batch) {
        const parsed = parsePull(row.raw);
        if (!parsed.ok) continue;
        const entries = indexEntriesOf(parsed.pull, row.account);
        if (entries.length === 0) continue;
        await writeConsumerIndex(tx, row.pullId, entries);
        done++;
      }
    });
  }
}
