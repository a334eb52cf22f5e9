import "server-only";
import { z } from "zod";
import { and, arrayContains, asc, count, eq, gte, isNull, lt, sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { alias } from "drizzle-orm/pg-core";
import { pulls, users } from "@/db/schema";
import { dayRange } from "@/lib/url/search-params";
import { searchWords, type PullListQuery } from "./list-query";
import { accountHeld, choosableUsers, visibleTo, type ListViewer } from "./visibility";
import { parsePull, type PayloadProblem, type Pull } from "@/lib/service/schemas";
import { isWinSql } from "@/lib/core/stage-sql";
import { aliased } from "@/lib/csv/cursor";

export type PullListRow = {
  pullId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  /** What kind of pull the row is (lib/pulls/pull-types.ts): most are PULLING_DATA. */
  type: string | null;
  providerName: string | null;
  providerFriendlyName: string | null;
  status: string;
  policyTypes: string[];
  totalPremiumCents: number | null;
  nextExpiryDate: string | null;
  serviceCreatedAt: Date | null;
  stage: string;
  assigneeName: string | null;
};

export const PULL_PAGE_SIZE = 50;

// Child pulls, pulls deleted at the service and SERVICING pulls are no rows of the list: the
// database keeps `listed` (db/schema/pulls.ts), and the list's partial indexes are over it.
export const listedPull: SQL = sql`${pulls.listed}`;

const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A phone typed as "(602) 555-0142" is searched by its digits, as stored. */
function searchableWord(word: string): string {
  return /^[\d()+\-.]+$/.test(word) && /\d{3}/.test(word.replace(/\D/g, "")) ? word.replace(/\D/g, "") : word;
}

export type { ListViewer } from "./visibility";

// Fragments the list and the reports share, so a drill-down from a report figure lists exactly
// the pulls behind it.

/** A pull's combination of lines as the reports group it: "AUTO + HOMEOWNERS", or NONE. */
export const policyLines: SQL<string> = sql<string>`(case when cardinality(${pulls.policyTypes}) = 0 then 'NONE' else array_to_string(${pulls.policyTypes}, ' + ') end)`;

/**
 * The pulls of one combination of lines as policyLines words it ("AUTO + HOMEOWNERS", NONE),
 * compared as the array it was worded from: the count reads pulls_top_lines_idx, and the
 * planner's statistics of the array see how many pulls match. Comparing the words as well
 * hid that (an estimate of 153 pulls where a million-pull book has 30,000), and the page then
 * sorted them all instead of walking the list's order: 336 ms instead of 9. A line's words are
 * [A-Z0-9_]+ (list-query.ts), so only a policy type with " + " in its name, which no carrier
 * sends, could be worded into a report row that this does not list.
 */
function ofLines(lines: string): SQL {
  return eq(pulls.policyTypes, lines === "NONE" ? [] : lines.split(" + "));
}

/** A WON pull whose premium the reports credit to `userId`. */
export const wonCreditedTo = (userId: string): SQL => sql`(${isWinSql()} and ${pulls.wonCreditedTo} = ${userId})`;

function conditions(viewer: ListViewer, query: PullListQuery): SQL | undefined {
  const parts: Array<SQL | undefined> = [listedPull];
  parts.push(visibleTo(viewer));
  for (const word of searchWords(query.q))
    parts.push(sql`${pulls.searchText} like ${`%${escapeLike(searchableWord(word))}%`}`);
  if (query.status) parts.push(eq(pulls.status, query.status));
  if (query.type) parts.push(eq(pulls.type, query.type));
  if (query.carrier) parts.push(eq(pulls.providerName, query.carrier));
  if (query.policyType) parts.push(arrayContains(pulls.policyTypes, [query.policyType]));
  if (query.stage) parts.push(eq(pulls.stage, query.stage));
  if (query.assignee === "unassigned") parts.push(isNull(pulls.assigneeId));
  else if (query.assignee) parts.push(eq(pulls.assigneeId, query.assignee));
  // An active monitoring names the pull or its account: a column the database keeps (migration
  // 0026). Written as a literal, not a bound `= $1`: a reused prepared statement's generic plan
  // could not prove the predicate of pulls_list_monitored_idx, and would read the whole book.
  if (query.monitored === "yes") parts.push(sql`${pulls.monitored}`);
  if (query.monitored === "no") parts.push(sql`not ${pulls.monitored}`);
  if (query.archived === "only") parts.push(eq(pulls.isArchived, true));
  else if (query.archived !== "include") parts.push(eq(pulls.isArchived, false));
  const linked = dayRange(query.from, query.to);
  if (linked.start) parts.push(gte(pulls.serviceCreatedAt, linked.start));
  if (linked.end) parts.push(lt(pulls.serviceCreatedAt, linked.end));
  if (query.link) parts.push(eq(pulls.publicAlias, query.link));
  if (query.lines) parts.push(ofLines(query.lines));
  if (query.wonBy) parts.push(wonCreditedTo(query.wonBy));
  const won = dayRange(query.wonFrom, query.wonTo);
  if (won.start) parts.push(and(isWinSql(), gte(pulls.stageChangedAt, won.start)));
  if (won.end) parts.push(and(isWinSql(), lt(pulls.stageChangedAt, won.end)));
  if (query.expiring)
    parts.push(sql`${pulls.nextExpiryDate} between current_date and current_date + ${query.expiring}::int`);
  return and(...parts);
}

function ordering(query: PullListQuery): SQL[] {
  const sort = query.sort ?? "created";
  const ascending = (query.dir ?? (sort === "name" || sort === "expiry" ? "asc" : "desc")) === "asc";
  const column = {
    created: pulls.serviceCreatedAt,
    name: pulls.sortName,
    premium: pulls.totalPremiumCents,
    expiry: pulls.nextExpiryDate,
  }[sort];
  // Rows without a value go last either way; the pull id keeps pages stable between loads.
  return [ascending ? sql`${column} asc nulls last` : sql`${column} desc nulls last`, asc(pulls.pullId)];
}

/**
 * The list counts matching pulls up to this many. Past it an exact figure would cost a scan of
 * every matching index entry on each page load (at a million pulls, longer than the rest of the
 * page), while nobody pages through ten thousand accounts: the page then says "10,000+" and
 * the filters narrow it.
 */
export const PULL_COUNT_CAP = 10_000;

/** The list's columns, shared by its page and its streamed CSV (lib/pulls/list-csv.ts). */
export const pullListFields = {
  pullId: pulls.pullId,
  firstName: pulls.firstName,
  lastName: pulls.lastName,
  email: pulls.email,
  phone: pulls.phone,
  type: pulls.type,
  providerName: pulls.providerName,
  providerFriendlyName: pulls.providerFriendlyName,
  status: pulls.status,
  policyTypes: pulls.policyTypes,
  totalPremiumCents: pulls.totalPremiumCents,
  nextExpiryDate: pulls.nextExpiryDate,
  serviceCreatedAt: pulls.serviceCreatedAt,
  stage: pulls.stage,
  assigneeName: users.name,
};

/** One page of the list, sorted as asked; `pageSize` rows at most. */
export async function listPullRows(
  db: Db,
  viewer: ListViewer,
  query: PullListQuery,
  pageSize = PULL_PAGE_SIZE,
): Promise<PullListRow[]> {
  const page = query.page ?? 1;
  return db
    .select(pullListFields)
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(conditions(viewer, query))
    .orderBy(...ordering(query))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The list's first `limit` rows as one statement, each column named as its key: a CSV's cursor reads it. */
export function pullListSql(db: Db, viewer: ListViewer, query: PullListQuery, limit: number): SQL {
  return db
    .select(aliased(pullListFields))
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(conditions(viewer, query))
    .orderBy(...ordering(query))
    .limit(limit)
    .getSQL();
}

/** How many pulls match, counted up to `cap`; `capped` when there are more. */
export function countPulls(
  db: Db,
  viewer: ListViewer,
  query: PullListQuery,
  cap = PULL_COUNT_CAP,
): Promise<{ total: number; capped: boolean }> {
  return countPullsUpTo(db, conditions(viewer, query), cap);
}

/** How many pulls `where` matches, counted up to `cap`; `capped` when there are more. */
export async function countPullsUpTo(
  db: Db,
  where: SQL | undefined,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  // Counting the rows of a LIMITed subquery stops reading the index at cap + 1.
  const matching = db
    .select({ one: sql`1` })
    .from(pulls)
    .where(where)
    .limit(cap + 1)
    .as("matching");
  const [row] = await db.select({ value: count() }).from(matching);
  const total = row?.value ?? 0;
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}

/** A page of the list and the count beside it, read in parallel. */
export async function listPulls(
  db: Db,
  viewer: ListViewer,
  query: PullListQuery,
  pageSize = PULL_PAGE_SIZE,
  cap = PULL_COUNT_CAP,
): Promise<{ rows: PullListRow[]; total: number; capped: boolean }> {
  const [rows, counted] = await Promise.all([
    listPullRows(db, viewer, query, pageSize),
    countPulls(db, viewer, query, cap),
  ]);
  return { rows, ...counted };
}

export type PullListOptions = {
  statuses: string[];
  types: string[];
  carriers: Array<{ value: string; label: string }>;
  policyTypes: string[];
  assignees: Array<{ id: string; name: string }>;
};

/**
 * The distinct values of an indexed column among listed pulls, by a loose index scan: one
 * index probe per distinct value (a handful) instead of reading every pull. Each needs a
 * partial index on the column `where listed` (db/schema/pulls.ts).
 */
function distinctTopLevel(key: "status" | "type" | "policyTypes") {
  const next = alias(pulls, "p");
  return sql`with recursive v as (
      (select ${pulls[key]} as value from ${pulls} where ${pulls.listed} and ${pulls[key]} is not null order by ${pulls[key]} limit 1)
      union all
      select (select ${next[key]} from ${pulls} ${next} where ${next.listed} and ${next[key]} > v.value order by ${next[key]} limit 1) from v where v.value is not null
    ) select value from v where value is not null order by value`;
}

/** The carriers (value and label) among listed pulls, by a loose scan of pulls_top_carrier_idx. */
const nextCarrier = alias(pulls, "p");
const carrierOptions = sql`with recursive c as (
    (select ${pulls.providerName} as value, coalesce(${pulls.providerFriendlyName}, ${pulls.providerName}) as label from ${pulls}
     where ${pulls.listed} and ${pulls.providerName} is not null order by 1, 2 limit 1)
    union all
    select n.value, n.label from c cross join lateral (
      select ${nextCarrier.providerName} as value, coalesce(${nextCarrier.providerFriendlyName}, ${nextCarrier.providerName}) as label from ${pulls} ${nextCarrier}
      where ${nextCarrier.listed} and ${nextCarrier.providerName} is not null
        and (${nextCarrier.providerName}, coalesce(${nextCarrier.providerFriendlyName}, ${nextCarrier.providerName})) > (c.value, c.label)
      order by 1, 2 limit 1) n
  ) select value, label from c order by 2`;

/**
 * The choices the filters offer: what the stored pulls actually contain. One statement (every
 * list and report page asks for them): each part is a loose index scan, so the whole costs
 * about a millisecond on a book of 100,000 pulls.
 */
export async function listPullFilterOptions(db: Db, viewer: ListViewer): Promise<PullListOptions> {
  // An agent sees only their own pulls and the queue: the other people are no choice for them
  // (and their names are none of their business), so only they themselves are offered, beside
  // "Unassigned".
  // A manager of an office is offered the office's people.
  const choosable = choosableUsers(viewer);
  const onlySelf = choosable ? sql` and ${choosable}` : sql``;
  const [row] = await queryRows<{
    statuses: string[] | null;
    types: string[] | null;
    carriers: Array<{ value: string; label: string }> | null;
    policy_types: string[] | null;
    assignees: Array<{ id: string; name: string }> | null;
  }>(
    db,
    sql`select
      (select json_agg(value order by value) from (${distinctTopLevel("status")}) s) as statuses,
      (select json_agg(value order by value) from (${distinctTopLevel("type")}) t) as types,
      (select json_agg(json_build_object('value', value, 'label', label) order by label) from (${carrierOptions}) c) as carriers,
      -- Distinct combinations of lines first (a few dozen), then their lines.
      (select json_agg(value order by value) from (select distinct unnest(value) as value from (${distinctTopLevel("policyTypes")}) combinations) l) as policy_types,
      (select json_agg(json_build_object('id', ${users.id}, 'name', ${users.name}) order by ${users.name}) from ${users} where ${users.isActive}${onlySelf}) as assignees`,
  );
  const carriers = row?.carriers ?? [];
  const carrierList = [
    ...new Map(carriers.map((c) => [c.value ?? "", { value: c.value ?? "", label: c.label }])).values(),
  ];
  return {
    statuses: row?.statuses ?? [],
    types: row?.types ?? [],
    carriers: carrierList,
    policyTypes: row?.policy_types ?? [],
    assignees: row?.assignees ?? [],
  };
}

/** The agency's own state of a pull: who has it and where it stands in the funnel. */
export type PullWorkflow = {
  stage: string;
  assigneeId: string | null;
  assigneeName: string | null;
  assignedAt: Date | null;
  wonPremiumCents: number | null;
  lostReason: string | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostToPremiumCents: number | null;
  stageChangedAt: Date | null;
  /** The pull's office (null: agency-wide). */
  officeId: string | null;
  /** Another pull of the account is assigned: this one is not in the unassigned queue (canOnPull). */
  accountHeld: boolean;
};

export type PullDetail = {
  pull: Pull;
  problems: PayloadProblem[];
  fetchedAt: Date;
  workflow: PullWorkflow;
  /** The account the pull was joined to (lib/pulls/account-key.ts); null when it stands alone. */
  accountKey: string | null;
  /** When the service marked it deleted; it is then kept but no longer listed. */
  deletedAt: Date | null;
};

// Pull ids are UUIDs; anything else names no pull (and would make PostgreSQL refuse the query).
const pullIdSchema = z.uuid();

export async function getPullDetail(db: Db, pullId: string): Promise<PullDetail | null> {
  if (!pullIdSchema.safeParse(pullId).success) return null;
  const rows = await db
    .select({
      raw: pulls.raw,
      fetchedAt: pulls.fetchedAt,
      accountKey: pulls.accountIdentifier,
      deletedAt: pulls.deletedAt,
      stage: pulls.stage,
      assigneeId: pulls.assigneeId,
      assigneeName: users.name,
      assignedAt: pulls.assignedAt,
      wonPremiumCents: pulls.wonPremiumCents,
      lostReason: pulls.lostReason,
      lostCategory: pulls.lostCategory,
      lostToCarrier: pulls.lostToCarrier,
      lostToPremiumCents: pulls.lostToPremiumCents,
      stageChangedAt: pulls.stageChangedAt,
      officeId: pulls.officeId,
      accountHeld,
    })
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(eq(pulls.pullId, pullId))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // The stored payload is the raw one; parsing again applies today's schema to old data.
  const parsed = parsePull(row.raw);
  if (!parsed.ok) return null;
  const { raw: _raw, fetchedAt, accountKey, deletedAt, ...workflow } = row;
  return { pull: parsed.pull, problems: parsed.problems, fetchedAt, workflow, accountKey, deletedAt };
}
