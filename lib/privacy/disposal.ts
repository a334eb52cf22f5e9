import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { auditEvents, dealReturns, legalHolds, pulls, servicingRequests, webhookEvents } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { stageIs } from "@/lib/core/stage-sql";
import { LOSS_STAGE, WIN_STAGE } from "@/lib/core/stages";
import { removePulls, type RemovedCounts } from "./remove-pulls";
import { ACCOUNT_KINDS, AUDIT_TRAIL_MIN_MONTHS, type AccountKind, type RetentionSchedule } from "./retention-kinds";
import { getRetentionSchedule } from "./retention";

// Disposal under the retention schedule, and its dry run, from one definition each: what is due
// at a moment is one query per kind of record (dueAccounts, inboxBodiesDue, auditRowsDue below),
// and the dry run counts what that very query finds while the run removes it.
//
// Accounts are the unit for prospects, lost deals and won clients: every pull of an account goes
// together, or none does (its lists, X-dates and gaps are read from its newest pull). An account
// is what the reviews are kept under (its identifier, or the pull's id when it has none); a
// child pull goes with its parent and a SERVICING pull with the client it served. An account is
// never due while it is monitored (it is in use) or while any of its pulls, or the account
// itself, is on legal hold; nor are the inbox bodies and audit rows of its pulls.

/** The one lock disposal and placing a hold take, so a hold placed during a run is seen by it. */
export const RETENTION_LOCK = sql`select pg_advisory_xact_lock(hashtext('coverdesk:retention'))`;

/** The daily run's time (UTC): the job's cron, and the moment the dry run counts for. */
export const DISPOSAL_TIME_UTC = { hour: 3, minute: 30 } as const;
export const DISPOSAL_CRON = `${DISPOSAL_TIME_UTC.minute} ${DISPOSAL_TIME_UTC.hour} * * *`;

/** The scheduled run on `day` (YYYY-MM-DD), or the next one after `now`. */
export function disposalRunAt(day: string): Date {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCHours(DISPOSAL_TIME_UTC.hour, DISPOSAL_TIME_UTC.minute, 0, 0);
  return at;
}
export function nextDisposalRun(now: Date = new Date()): Date {
  const today = disposalRunAt(now.toISOString().slice(0, 10));
  return today > now ? today : new Date(today.getTime() + 86_400_000);
}

/** Accounts per transaction, inbox rows per statement, audit rows per call of dispose_audit_events. */
const ACCOUNT_BATCH = 500;
const ROW_BATCH = 5_000;
const MAX_BATCHES = 10_000;

/**
 * The account a pull belongs to for retention, over a row of `pulls` named `p`: the client's
 * account for a SERVICING pull (and its children), the parent's for a child pull, else the pull's
 * own account (its identifier, or its id).
 */
export const retentionAccountKey = sql`(case when p.parent_pull_id is null and p.type is distinct from 'SERVICING'
  then coalesce(nullif(p.account_identifier, ''), p.pull_id::text)
  else coalesce(
    (select coalesce(nullif(c.account_identifier, ''), c.pull_id::text)
       from ${servicingRequests} s join ${pulls} c on c.pull_id = s.pull_id
       where s.servicing_pull_id = coalesce(p.parent_pull_id, p.pull_id) limit 1),
    (select coalesce(nullif(par.account_identifier, ''), par.pull_id::text) from ${pulls} par where par.pull_id = p.parent_pull_id),
    p.parent_pull_id::text,
    coalesce(nullif(p.account_identifier, ''), p.pull_id::text))
  end)`;

/** Every pull with its retention account (CTE `members`), and the accounts on hold (CTE `held`). */
const membersAndHeld = sql`members as (
    select p.pull_id, p.stage, p.type, p.parent_pull_id, p.service_created_at, p.created_at, p.stage_changed_at,
      p.assigned_at, p.first_touched_at, p.next_expiry_date, p.monitored,
      w.pull_id is not null as won_back,
      ${retentionAccountKey} as account_key
    from ${pulls} p
    left join (select distinct d.pull_id from ${dealReturns} d where d.kind = 'WIN_BACK') w on w.pull_id = p.pull_id
  ),
  held as (
    select distinct m.account_key from members m
    join ${legalHolds} h on h.lifted_at is null and (h.pull_id = m.pull_id or h.account_key = m.account_key)
  )`;

/** The pulls of every account on legal hold: their inbox bodies and audit rows are kept too. */
export async function listHeldPullIds(db: Db): Promise<string[]> {
  // Most days nothing is held: one probe instead of grouping the whole book.
  const [any] = await queryRows<{ id: number }>(db, sql`select id from ${legalHolds} where lifted_at is null limit 1`);
  if (!any) return [];
  const rows = await queryRows<{ pull_id: string }>(
    db,
    sql`with ${membersAndHeld} select m.pull_id from members m where m.account_key in (select account_key from held)`,
  );
  return rows.map((row) => row.pull_id);
}

const monthsBefore = (at: Date, months: number) =>
  sql`(${at.toISOString()}::timestamptz - make_interval(months => ${months}::int))`;

/**
 * The accounts due for disposal at `asOf` under `schedule`, each with its kind and pulls: the one
 * definition the dry run counts and the run removes. A kind set to Keep is never due.
 *
 * When an account's clock starts: its last activity (the newest of its pulls' arrivals,
 * assignments, stage changes and first looks). A lost deal's, or a won client's, starts at the
 * next policy expiry its pulls showed (the latest of them, `pulls.next_expiry_date`) when that
 * is later, but never more than a year after its last activity: a term is at most a year, so a
 * later expiry is a guess, and the policies of an account nobody has refreshed are no longer
 * known to be in force.
 */
function dueAccounts(schedule: RetentionSchedule, asOf: Date): SQL {
  const dueWhen = ACCOUNT_KINDS.flatMap((kind) => {
    const months = schedule[kind];
    return months === null ? [] : [sql`(c.kind = ${kind} and c.clock_from <= ${monthsBefore(asOf, months)})`];
  });
  return sql`with ${membersAndHeld},
  accounts as (
    select m.account_key,
      (array_agg(m.stage order by (m.parent_pull_id is null and m.type is distinct from 'SERVICING') desc,
        m.service_created_at desc nulls last, m.created_at desc, m.pull_id desc))[1] as stage,
      bool_or(${stageIs(WIN_STAGE, sql.raw("m.stage"))} or m.won_back) as ever_won,
      max(greatest(m.service_created_at, m.created_at, m.stage_changed_at, m.assigned_at, m.first_touched_at)) as last_activity,
      max(m.next_expiry_date) as last_expiry,
      bool_or(m.monitored) as monitored,
      array_agg(m.pull_id order by m.pull_id) as pull_ids
    from members m
    group by m.account_key
  ),
  classified as (
    select a.account_key, a.pull_ids,
      case when a.ever_won then 'WON_CLIENTS' when ${stageIs(LOSS_STAGE, sql.raw("a.stage"))} then 'LOST_DEALS' else 'PROSPECTS' end as kind,
      case when (a.ever_won or ${stageIs(LOSS_STAGE, sql.raw("a.stage"))}) and a.last_expiry is not null
        then greatest(a.last_activity, least(a.last_expiry::timestamptz, a.last_activity + interval '12 months'))
        else a.last_activity end as clock_from
    from accounts a
    where not a.monitored and a.account_key not in (select account_key from held)
  )
  select c.account_key, c.kind, c.pull_ids from classified c
  where ${dueWhen.length > 0 ? sql.join(dueWhen, sql` or `) : sql`false`}`;
}

/** The inbox rows whose bodies are due: processed (DONE or IGNORED) and received before the cutoff, not of a held pull. */
function inboxBodiesDue(cutoff: SQL, heldPullIds: string[]): SQL {
  return sql`${webhookEvents.status} in ('DONE', 'IGNORED') and ${webhookEvents.processedAt} is not null
    and ${webhookEvents.receivedAt} < ${cutoff} and ${webhookEvents.payload} <> '{}'::jsonb
    and (${webhookEvents.pullId} is null or not (${webhookEvents.pullId} = any(${pgUuidArray(heldPullIds)})))`;
}

/**
 * The audit rows due: written before the cutoff, not about a held pull. The database's own
 * dispose_audit_events (migration 0036) deletes by the same rule, bounded by the legal minimum.
 */
function auditRowsDue(cutoff: SQL, heldPullIds: string[]): SQL {
  return sql`${auditEvents.at} < ${cutoff}
    and (${auditEvents.pullId} is null or not (${auditEvents.pullId} = any(${pgUuidArray(heldPullIds)})))`;
}

const pgUuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/** The audit trail's cutoff at `asOf`: the schedule's period, never under the legal minimum. */
const auditCutoffMonths = (months: number) => Math.max(months, AUDIT_TRAIL_MIN_MONTHS);

export type DisposalCounts = {
  /** Accounts (and their pulls) per kind. */
  accounts: Record<AccountKind, number>;
  pulls: Record<AccountKind, number>;
  inboxBodies: number;
  auditRows: number;
};

const zeroByKind = (): Record<AccountKind, number> => ({ PROSPECTS: 0, LOST_DEALS: 0, WON_CLIENTS: 0 });

/** The dry run: what a disposal at `asOf` would remove under `schedule`, counted by the run's own queries. */
export async function countDisposalDue(
  db: Db,
  options: { asOf: Date; schedule?: RetentionSchedule },
): Promise<DisposalCounts> {
  const schedule = options.schedule ?? (await getRetentionSchedule(db));
  const held = await listHeldPullIds(db);
  const [byKind, inbox, audit] = await Promise.all([
    queryRows<{ kind: AccountKind; accounts: number | string; pulls: number | string }>(
      db,
      sql`select kind, count(*) as accounts, coalesce(sum(cardinality(pull_ids)), 0) as pulls
          from (${dueAccounts(schedule, options.asOf)}) due group by kind`,
    ),
    schedule.INBOX_BODIES === null
      ? Promise.resolve([{ n: 0 }])
      : queryRows<{ n: number | string }>(
          db,
          sql`select count(*) as n from ${webhookEvents} where ${inboxBodiesDue(monthsBefore(options.asOf, schedule.INBOX_BODIES), held)}`,
        ),
    schedule.AUDIT_TRAIL === null
      ? Promise.resolve([{ n: 0 }])
      : queryRows<{ n: number | string }>(
          db,
          sql`select count(*) as n from ${auditEvents} where ${auditRowsDue(monthsBefore(options.asOf, auditCutoffMonths(schedule.AUDIT_TRAIL)), held)}`,
        ),
  ]);
  const accounts = zeroByKind();
  const pullCounts = zeroByKind();
  for (const row of byKind) {
    accounts[row.kind] = Number(row.accounts);
    pullCounts[row.kind] = Number(row.pulls);
  }
  return {
    accounts,
    pulls: pullCounts,
    inboxBodies: Number(inbox[0]?.n ?? 0),
    auditRows: Number(audit[0]?.n ?? 0),
  };
}

export type DisposalRun = DisposalCounts & { removed: RemovedCounts };

/**
 * Disposes of what is due now: accounts in batches (each batch one transaction, under the
 * retention lock, found again inside it so a hold or refresh that came meanwhile is seen), then
 * inbox bodies, then old audit rows. Writes one audit entry with the counts, and no consumer
 * content. `now` is for tests and the dry run's comparison; the job passes none.
 */
export async function runDisposal(db: Db, options: { now?: Date } = {}): Promise<DisposalRun> {
  const now = options.now ?? new Date();
  const schedule = await getRetentionSchedule(db);
  const accounts = zeroByKind();
  const pullCounts = zeroByKind();
  const removed: RemovedCounts = {};
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(RETENTION_LOCK);
      const due = await queryRows<{ account_key: string; kind: AccountKind; pull_ids: string[] | string }>(
        tx,
        sql`${dueAccounts(schedule, now)} order by c.account_key limit ${ACCOUNT_BATCH}`,
      );
      if (due.length === 0) return true;
      const pullIds = due.flatMap((row) => uuidList(row.pull_ids));
      const counts = await removePulls(tx, pullIds, { kind: "DISPOSAL" });
      for (const row of due) {
        accounts[row.kind] += 1;
        pullCounts[row.kind] += uuidList(row.pull_ids).length;
      }
      for (const [key, value] of Object.entries(counts)) removed[key] = (removed[key] ?? 0) + value;
      // A batch that removed nothing would be found again: stop rather than spin.
      return Object.values(counts).every((value) => value === 0);
    });
    if (done) break;
  }

  const held = await listHeldPullIds(db);
  let inboxBodies = 0;
  if (schedule.INBOX_BODIES !== null) {
    const cutoff = monthsBefore(now, schedule.INBOX_BODIES);
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`update ${webhookEvents} set payload = '{}'::jsonb
            where ${webhookEvents.id} in (select ${webhookEvents.id} from ${webhookEvents} where ${inboxBodiesDue(cutoff, held)} limit ${ROW_BATCH})
            returning ${webhookEvents.id}`,
      );
      inboxBodies += rows.length;
      if (rows.length < ROW_BATCH) break;
    }
  }

  let auditRows = 0;
  if (schedule.AUDIT_TRAIL !== null) {
    const cutoff = monthsBefore(now, auditCutoffMonths(schedule.AUDIT_TRAIL));
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const [row] = await queryRows<{ n: number | string }>(
        db,
        sql`select dispose_audit_events(${cutoff}, ${pgUuidArray(held)}, ${ROW_BATCH}::int) as n`,
      );
      const n = Number(row?.n ?? 0);
      auditRows += n;
      if (n < ROW_BATCH) break;
    }
  }

  const run: DisposalRun = { accounts, pulls: pullCounts, inboxBodies, auditRows, removed };
  await recordAudit(db, null, "RETENTION_DISPOSAL_RUN", {
    details: { asOf: now.toISOString(), schedule, ...run },
  });
  return run;
}

/** A uuid[] as the driver hands it: an array (postgres-js) or its text form (PGlite may). */
function uuidList(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, "")
    .split(",")
    .filter(Boolean);
}

/** One line for the jobs page. */
export function disposalSummary(run: DisposalRun): string {
  const accounts = ACCOUNT_KINDS.reduce((sum, kind) => sum + run.accounts[kind], 0);
  const pullsGone = ACCOUNT_KINDS.reduce((sum, kind) => sum + run.pulls[kind], 0);
  return `${accounts} accounts (${pullsGone} pulls) disposed of: ${run.accounts.PROSPECTS} prospects, ${run.accounts.LOST_DEALS} lost deals, ${run.accounts.WON_CLIENTS} won clients; ${run.inboxBodies} inbox bodies blanked; ${run.auditRows} audit entries deleted`;
}
