import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { pulls } from "@/db/schema";

// A linked account arrives once, with its first top-level pull. A monitoring refresh or a
// reconnect is a later pull of the same account (the same account identifier): the agency
// already has that business, so the reports do not count it as an arrival and the speed-to-lead
// rule does not wait on it. "First" is by link date (when the service made the pull, or when we
// stored it if the service said nothing), then by pull id, so two pulls never both come first.

const first = alias(pulls, "first_of_account");

/** On a row of `pulls`: an earlier top-level pull of its account exists, so it is a refresh or reconnect. */
export function laterPullOfAccount(): SQL {
  return sql`exists (
    select 1 from ${pulls} ${first}
    where ${first.accountIdentifier} = ${pulls.accountIdentifier} and ${first.parentPullId} is null
      and (coalesce(${first.serviceCreatedAt}, ${first.createdAt}), ${first.pullId})
        < (coalesce(${pulls.serviceCreatedAt}, ${pulls.createdAt}), ${pulls.pullId}))`;
}

/**
 * `select pull_id …` of every refresh and reconnect in the book, for a report to leave out with
 * an anti-join. Only accounts with more than one pull can have one: those are found first in
 * one pass over pulls_account_identifier_idx (index-only, grouped in its order), and only their
 * pulls are then numbered in order of arrival, so the rest of the book costs no more than that
 * pass. The same order as laterPullOfAccount(): all but each account's first.
 */
export function laterPullsOfAccounts(): SQL {
  return sql`select numbered.pull_id from (
      select ${pulls.pullId} as pull_id, row_number() over (
               partition by ${pulls.accountIdentifier}
               order by coalesce(${pulls.serviceCreatedAt}, ${pulls.createdAt}), ${pulls.pullId}) as place
      from ${pulls}
      where ${pulls.parentPullId} is null
        -- An array, so PostgreSQL looks the few accounts up by index instead of hashing the book.
        and ${pulls.accountIdentifier} = any(array(
          select ${pulls.accountIdentifier} from ${pulls} where ${pulls.accountIdentifier} is not null
          group by 1 having count(*) > 1))) numbered
    where numbered.place > 1`;
}
