import "server-only";
import { and, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { qualified } from "@/db/sql";
import { readingPull } from "./account-key";

/**
 * A condition on `pulls`: the row is a reading of its account (lib/pulls/account-key.ts) and
 * no successful reading of the account is newer (a reading without an account is its own
 * account). The per-household tables (policy_xdates, household_gaps) hold rows for these pulls
 * only; their backfills select by it.
 */
export const newestOfAccount = sql`(${readingPull()} and (${qualified(pulls, pulls.accountIdentifier)} is null or not exists (
  select 1 from ${pulls} n where n.account_identifier = ${qualified(pulls, pulls.accountIdentifier)}
    and ${readingPull("n")} and n.status = 'SUCCESS'
    and n.service_created_at > ${qualified(pulls, pulls.serviceCreatedAt)})))`;

/**
 * In a backfill's transaction: takes the per-account advisory locks storePull takes (keys sorted,
 * so two backfills never deadlock), then answers which of `pullIds` are still their account's
 * newest. A refresh stored meanwhile is seen here, and wins.
 */
export async function lockAccountsKeepNewest(tx: Db, lockKeys: string[], pullIds: string[]): Promise<Set<string>> {
  const list = sql.join(
    [...lockKeys].sort().map((key) => sql`(${key})`),
    sql`, `,
  );
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(k)) from (values ${list}) as keys(k)`);
  const rows = await tx
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(and(inArray(pulls.pullId, pullIds), newestOfAccount));
  return new Set(rows.map((row) => row.pullId));
}
