import "server-only";
import { sql } from "drizzle-orm";
import { pulls } from "@/db/schema";
import { qualified } from "@/db/sql";

/**
 * A condition on `pulls`: the row is its account's newest successful pull (a pull without an
 * account identifier is its own account). The per-household tables (policy_xdates,
 * household_gaps) hold rows for these pulls only; their backfills select by it.
 */
export const newestOfAccount = sql`(${qualified(pulls, pulls.accountIdentifier)} is null or not exists (
  select 1 from ${pulls} n where n.account_identifier = ${qualified(pulls, pulls.accountIdentifier)}
    and n.parent_pull_id is null and n.status = 'SUCCESS'
    and n.service_created_at > ${qualified(pulls, pulls.serviceCreatedAt)}))`;
