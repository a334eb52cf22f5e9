import "server-only";
import { and, arrayContains, asc, count, eq, gte, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { pulls, users } from "@/db/schema";
import { dayRange } from "@/lib/url/search-params";
import { searchWords, type PullListQuery } from "./list-query";
import { parsePull, type PayloadProblem, type Pull } from "@/lib/service/schemas";

export type PullListRow = {
  pullId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
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

// Child pulls (parent_pull_id set) are the service's internal work: never listed.
const topLevel = isNull(pulls.parentPullId);

const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A phone typed as "(602) 555-0142" is searched by its digits, as stored. */
function searchableWord(word: string): string {
  return /^[\d()+\-.]+$/.test(word) && /\d{3}/.test(word.replace(/\D/g, "")) ? word.replace(/\D/g, "") : word;
}

const monitoredPull = sql`exists (
  select 1 from monitorings m
  where coalesce(m.status, 'ACTIVE') <> 'STOPPED'
    and (m.latest_pull_id = ${pulls.pullId} or m.initial_pull_id = ${pulls.pullId}
         or (${pulls.accountIdentifier} is not null and m.account_identifier = ${pulls.accountIdentifier})))`;

/** Who is looking: everyone's pulls, or an agent's own plus the unassigned queue. */
export type ListViewer = { kind: "all" } | { kind: "own-or-unassigned"; userId: string };

function conditions(viewer: ListViewer, query: PullListQuery): SQL | undefined {
  const parts: Array<SQL | undefined> = [topLevel];
  if (viewer.kind === "own-or-unassigned") parts.push(or(isNull(pulls.assigneeId), eq(pulls.assigneeId, viewer.userId)));
  for (const word of searchWords(query.q)) parts.push(sql`${pulls.searchText} like ${`%${escapeLike(searchableWord(word))}%`}`);
  if (query.status) parts.push(eq(pulls.status, query.status));
  if (query.type) parts.push(eq(pulls.type, query.type));
  if (query.carrier) parts.push(eq(pulls.providerName, query.carrier));
  if (query.policyType) parts.push(arrayContains(pulls.policyTypes, [query.policyType]));
  if (query.stage) parts.push(eq(pulls.stage, query.stage));
  if (query.assignee === "unassigned") parts.push(isNull(pulls.assigneeId));
  else if (query.assignee) parts.push(eq(pulls.assigneeId, query.assignee));
  if (query.monitored === "yes") parts.push(monitoredPull);
  if (query.monitored === "no") parts.push(sql`not ${monitoredPull}`);
  if (query.archived === "only") parts.push(eq(pulls.isArchived, true));
  else if (query.archived !== "include") parts.push(eq(pulls.isArchived, false));
  const linked = dayRange(query.from, query.to);
  if (linked.start) parts.push(gte(pulls.serviceCreatedAt, linked.start));
  if (linked.end) parts.push(lt(pulls.serviceCreatedAt, linked.end));
  if (query.link) parts.push(eq(pulls.publicAlias, query.link));
  if (query.lines) parts.push(sql`(case when cardinality(${pulls.policyTypes}) = 0 then 'NONE' else array_to_string(${pulls.policyTypes}, ' + ') end) = ${query.lines}`);
  if (query.wonBy) parts.push(and(eq(pulls.stage, "WON"), eq(pulls.wonCreditedTo, query.wonBy)));
  const won = dayRange(query.wonFrom, query.wonTo);
  if (won.start) parts.push(and(eq(pulls.stage, "WON"), gte(pulls.stageChangedAt, won.start)));
  if (won.end) parts.push(and(eq(pulls.stage, "WON"), lt(pulls.stageChangedAt, won.end)));
  if (query.expiring) parts.push(sql`${pulls.nextExpiryDate} between current_date and current_date + ${query.expiring}::int`);
  return and(...parts);
}

function ordering(query: PullListQuery): SQL[] {
  const sort = query.sort ?? "created";
  const ascending = (query.dir ?? (sort === "name" || sort === "expiry" ? "asc" : "desc")) === "asc";
  const column = { created: pulls.serviceCreatedAt, name: pulls.sortName, premium: pulls.totalPremiumCents, expiry: pulls.nextExpiryDate }[sort];
  // Rows without a value go last either way; the pull id keeps pages stable between loads.
  return [ascending ? sql`${column} asc nulls last` : sql`${column} desc nulls last`, asc(pulls.pullId)];
}

export async function listPulls(db: Db, viewer: ListViewer, query: PullListQuery, pageSize = PULL_PAGE_SIZE): Promise<{ rows: PullListRow[]; total: number }> {
  const where = conditions(viewer, query);
  const page = query.page ?? 1;
  const [rows, totals] = await Promise.all([
    db
      .select({
        pullId: pulls.pullId,
        firstName: pulls.firstName,
        lastName: pulls.lastName,
        email: pulls.email,
        providerName: pulls.providerName,
        providerFriendlyName: pulls.providerFriendlyName,
        status: pulls.status,
        policyTypes: pulls.policyTypes,
        totalPremiumCents: pulls.totalPremiumCents,
        nextExpiryDate: pulls.nextExpiryDate,
        serviceCreatedAt: pulls.serviceCreatedAt,
        stage: pulls.stage,
        assigneeName: users.name,
      })
      .from(pulls)
      .leftJoin(users, eq(users.id, pulls.assigneeId))
      .where(where)
      .orderBy(...ordering(query))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ value: count() }).from(pulls).where(where),
  ]);
  return { rows, total: totals[0]?.value ?? 0 };
}

export type PullListOptions = {
  statuses: string[];
  types: string[];
  carriers: Array<{ value: string; label: string }>;
  policyTypes: string[];
  assignees: Array<{ id: string; name: string }>;
};

/** The choices the filters offer: what the stored pulls actually contain. */
export async function listPullFilterOptions(db: Db): Promise<PullListOptions> {
  const [statuses, types, carriers, policyTypes, assignees] = await Promise.all([
    db.selectDistinct({ value: pulls.status }).from(pulls).where(topLevel).orderBy(pulls.status),
    db.selectDistinct({ value: pulls.type }).from(pulls).where(and(topLevel, isNotNull(pulls.type))).orderBy(pulls.type),
    db
      .selectDistinct({ value: pulls.providerName, label: sql<string>`coalesce(${pulls.providerFriendlyName}, ${pulls.providerName})` })
      .from(pulls)
      .where(and(topLevel, isNotNull(pulls.providerName)))
      .orderBy(sql`2`),
    queryRows<{ value: string }>(db, sql`select distinct unnest(policy_types) as value from pulls where parent_pull_id is null order by 1`),
    db.select({ id: users.id, name: users.name }).from(users).where(eq(users.isActive, true)).orderBy(users.name),
  ]);
  const carrierList = [...new Map(carriers.map((c) => [c.value ?? "", { value: c.value ?? "", label: c.label }])).values()];
  return {
    statuses: statuses.map((r) => r.value),
    types: types.map((r) => r.value ?? ""),
    carriers: carrierList,
    policyTypes: policyTypes.map((r) => r.value),
    assignees,
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
  stageChangedAt: Date | null;
};

export type PullDetail = { pull: Pull; problems: PayloadProblem[]; fetchedAt: Date; workflow: PullWorkflow };

export async function getPullDetail(db: Db, pullId: string): Promise<PullDetail | null> {
  const rows = await db
    .select({
      raw: pulls.raw,
      fetchedAt: pulls.fetchedAt,
      stage: pulls.stage,
      assigneeId: pulls.assigneeId,
      assigneeName: users.name,
      assignedAt: pulls.assignedAt,
      wonPremiumCents: pulls.wonPremiumCents,
      lostReason: pulls.lostReason,
      stageChangedAt: pulls.stageChangedAt,
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
  const { raw: _raw, fetchedAt, ...workflow } = row;
  return { pull: parsed.pull, problems: parsed.problems, fetchedAt, workflow };
}
