import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import {
  agencyRules,
  agencyzoomSettings,
  agencyzoomUserMap,
  auditEvents,
  dealReturns,
  enrichmentAnswers,
  findingDecisions,
  handoffs,
  legalHolds,
  monitoringEvents,
  monitorings,
  policyCheckRuns,
  pullArchiveWrites,
  pulls,
  servicingRequests,
  users,
} from "@/db/schema";
import { retentionAccountKey } from "@/lib/privacy/disposal";

// What the pull page reads, one entry a read of its loader (lib/loaders/pull-page.ts), each
// with what marks a change in the rows that read sees: a SQL value over the pull's own row,
// named `p`. The loader may read only under these names (loadPullPageInputs), and the page's
// version (pull-page-version.ts) is a hash of every marker, so the version cannot leave out
// something the page shows: a new read needs a name here, and the name needs its marker.

/** The pull's row as the version query names it. */
const p = sql.raw("p");

/** Every column of the rows of `table` that match `where` (over alias `t`), in a stable order. */
const rowsOf = (table: PgTable, where: SQL) =>
  sql`(select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) from ${table} t where ${where})`;

/** The key reviews and look-ups are kept under: the account, or the pull when it has none. */
const accountKey = sql`coalesce(nullif(${p}.account_identifier, ''), ${p}.pull_id::text)`;

export const PULL_PAGE_INPUTS = {
  /**
   * The pull's columns the page shows (lib/pulls/queries.ts getPullDetail; a new payload moves
   * updated_at), not the ones only the workflow reads, like when its assignee first saw it: the
   * page marks that on each view, and must not then find itself stale.
   */
  detail: sql`concat_ws(',', ${p}.updated_at, ${p}.fetched_at, ${p}.account_identifier, ${p}.deleted_at, ${p}.stage,
                ${p}.assignee_id, ${p}.assigned_at, ${p}.won_premium_cents, ${p}.lost_reason, ${p}.lost_category,
                ${p}.lost_to_carrier, ${p}.lost_to_premium_cents, ${p}.stage_changed_at)`,
  assigneeName: sql`(select u.name from ${users} u where u.id = ${p}.assignee_id)`,
  monitoring: rowsOf(
    monitorings,
    sql`t.latest_pull_id = ${p}.pull_id or t.initial_pull_id = ${p}.pull_id or t.reconnect_pull_id = ${p}.pull_id
        or (${p}.account_identifier is not null and t.account_identifier = ${p}.account_identifier)`,
  ),
  /** The people to assign to: not their logins, which the page does not show. */
  people: sql`(select md5(coalesce(string_agg(concat_ws(',', u.id, u.name, u.role, u.is_active), ';' order by u.id), ''))
                from ${users} u)`,
  /** The audit trail only grows. */
  // Views are left out, as the history leaves them out: opening the page must not change its version.
  history: sql`(select concat_ws(',', count(*), max(t.at)) from ${auditEvents} t where t.pull_id = ${p}.pull_id and t.action <> 'PULL_VIEWED')`,
  dealReturn: rowsOf(dealReturns, sql`t.pull_id = ${p}.pull_id`),
  /** The account's decisions, and the rules the review applies (one row, the agency's). */
  review: sql`concat_ws(',', ${rowsOf(findingDecisions, sql`t.account_key = ${accountKey}`)}, ${rowsOf(agencyRules, sql`true`)})`,
  policyCheck: rowsOf(policyCheckRuns, sql`t.pull_id = ${p}.pull_id`),
  servicing: rowsOf(servicingRequests, sql`t.pull_id = ${p}.pull_id`),
  servicedPull: rowsOf(servicingRequests, sql`t.servicing_pull_id = ${p}.pull_id`),
  /**
   * The account's look-ups, and those of the same questions kept under other accounts: which
   * questions those are is read from the payload, so any new answer counts (they are few and paid).
   */
  enrichment: sql`(select concat_ws(',', count(*), max(t.asked_at), max(t.answered_at)) from ${enrichmentAnswers} t)`,
  archive: rowsOf(pullArchiveWrites, sql`t.pull_id = ${p}.pull_id`),
  /** The legal holds that keep the pull: its own, and its account's (the account as disposal groups it, over `p`). */
  legalHolds: rowsOf(legalHolds, sql`t.pull_id = ${p}.pull_id or t.account_key = ${retentionAccountKey}`),
  /** The pull's AgencyZoom lead, and what a send would assume (the admin's settings and user map). */
  agencyzoom: sql`concat_ws(',', ${rowsOf(handoffs, sql`t.pull_id = ${p}.pull_id`)}, ${rowsOf(agencyzoomSettings, sql`true`)},
                ${rowsOf(agencyzoomUserMap, sql`true`)})`,
  /** The account's other pulls and what the service said of them: the timeline. */
  timeline: sql`(select md5(coalesce(string_agg(concat_ws(',', o.pull_id, o.status, o.updated_at, o.assignee_id,
                   (select count(*) from ${monitoringEvents} e where e.pull_id = o.pull_id)), ';' order by o.pull_id), ''))
                 from ${pulls} o
                 where ${p}.account_identifier is not null and o.account_identifier = ${p}.account_identifier
                   and o.parent_pull_id is null)`,
} as const satisfies Record<string, SQL>;

export type PullPageInput = keyof typeof PULL_PAGE_INPUTS;

/** The version of what the page shows, as one value over the pull's row `p`. */
export const pullPageVersionOf = sql`md5(concat_ws('|', ${sql.join(
  Object.values(PULL_PAGE_INPUTS).map((marker) => sql`coalesce((${marker})::text, '')`),
  sql`, `,
)}))`;

/** The loader's reads, run together, each under the name of its input (and only under one). */
export async function loadPullPageInputs<R extends { [K in keyof R]: K extends PullPageInput ? unknown : never }>(
  reads: R,
): Promise<{ [K in keyof R]: Awaited<R[K]> }> {
  const entries = Object.entries(reads) as Array<[keyof R, unknown]>;
  const values = await Promise.all(entries.map(([, read]) => read));
  return Object.fromEntries(entries.map(([key], i) => [key, values[i]])) as { [K in keyof R]: Awaited<R[K]> };
}
