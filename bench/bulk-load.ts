// The PostgreSQL side of a seed: every chunk's COPY in one transaction into tables truncated in
// it, with their foreign keys set aside, on one connection of its own.
import { finished } from "node:stream/promises";
import type postgres from "postgres";
import { copyStatement, type CopyPlan } from "./copy-rows";

export type Session = postgres.ReservedSql;

/** The bulk-loaded tables, in the order their rows are written (pulls before what refers to them). */
export const LOADED_TABLES = [
  "pulls",
  "policies",
  "audit_events",
  "monitorings",
  "policy_xdates",
  "household_gaps",
] as const;

type ForeignKey = { table: string; name: string; def: string };

/**
 * Foreign keys from or to the loaded tables, dropped for the load and added back after it:
 * checked row by row, each policy, audit event and assigned pull locked the row it refers to
 * (a write of its own per row); added back, each is validated by one join. The rows are the
 * same either way: the seed writes a pull before anything that names it.
 */
export async function dropForeignKeys(session: Session): Promise<ForeignKey[]> {
  const keys = await session.unsafe<ForeignKey[]>(
    `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def
     from pg_constraint c
     where c.contype = 'f' and (c.conrelid::regclass::text = any($1) or c.confrelid::regclass::text = any($1))`,
    [LOADED_TABLES as unknown as string[]],
  );
  for (const key of keys) await session.unsafe(`alter table ${key.table} drop constraint "${key.name}"`);
  return keys;
}

export async function addForeignKeys(session: Session, keys: ForeignKey[]): Promise<void> {
  for (const key of keys) await session.unsafe(`alter table ${key.table} add constraint "${key.name}" ${key.def}`);
}

/**
 * The triggers of migration 0026 that keep pulls.monitored. During the load they would cost
 * the most where they do the least: each chunk's COPY into monitorings would look for the
 * pulls of its accounts without the index set aside, a scan of every pull loaded so far, a
 * thousand times over at a million pulls. Off for the load; the seed then asks the rule once
 * for the whole book (reconcileMonitoredFlags, the app's own pass).
 */
const MONITORED_TRIGGERS = [
  ["pulls", "pulls_set_monitored"],
  ["monitorings", "pulls_follow_monitorings_insert"],
] as const;

export async function setMonitoredTriggers(session: Session, enabled: boolean): Promise<void> {
  for (const [table, trigger] of MONITORED_TRIGGERS)
    await session.unsafe(`alter table ${table} ${enabled ? "enable" : "disable"} trigger ${trigger}`);
}

/**
 * The triggers of migration 0046 that mark the pulls a write changed for the reports' rollups:
 * during the load every COPY would mark every row it wrote. Off for the load; the seed then
 * derives the rollups once for the whole book (rebuildReportRollups, the migration's backfill).
 */
const REPORT_TRIGGERS = [
  ["pulls", "report_dirty_pulls_insert"],
  ["pulls", "report_rollups_pulls_truncate"],
] as const;

export async function setReportTriggers(session: Session, enabled: boolean): Promise<void> {
  for (const [table, trigger] of REPORT_TRIGGERS)
    await session.unsafe(`alter table ${table} ${enabled ? "enable" : "disable"} trigger ${trigger}`);
}

/**
 * Runs `load` in one transaction that first truncates the (empty) loaded tables, so that its
 * COPYs may write their rows frozen (`freeze`): already visible to every transaction, they
 * need no hint bits set and no freezing later, which VACUUM would otherwise do page by page
 * over the whole book. One commit instead of one per COPY, too.
 */
export async function inLoadTransaction(session: Session, load: (freeze: boolean) => Promise<void>): Promise<void> {
  const counts = await session.unsafe<Array<{ n: number }>>(
    LOADED_TABLES.map((t) => `select count(*)::int as n from (select 1 from ${t} limit 1) x`).join(" union all "),
  );
  const empty = counts.every((c) => c.n === 0);
  await session.unsafe("begin");
  try {
    // TRUNCATE needs no table that refers to these to be truncated with them: dropForeignKeys ran.
    if (empty) await session.unsafe(`truncate ${LOADED_TABLES.join(", ")}`);
    await load(empty);
    await session.unsafe("commit");
  } catch (error) {
    await session.unsafe("rollback").catch(() => {});
    throw error;
  }
}

/** COPY `text` (copy-rows.ts's format, UTF-8) into the plan's table. */
export async function copyInto(session: Session, plan: CopyPlan, text: Uint8Array, freeze: boolean): Promise<void> {
  const stream = await session.unsafe(`${copyStatement(plan)}${freeze ? " with (freeze)" : ""}`).writable();
  stream.end(Buffer.from(text.buffer, text.byteOffset, text.byteLength));
  await finished(stream);
}

/**
 * Runs `statements` on all `sessions` at once, each taking the next when done. After the load
 * the rebuild of some thirty indexes is the seed's longest single-threaded step: a GIN build
 * uses one core, so a second connection builds the B-trees beside it. Longest first.
 */
export async function runSideBySide(
  sessions: Session[],
  statements: string[],
  onDone?: (statement: string, seconds: number) => void,
): Promise<void> {
  const queue = [...statements];
  await Promise.all(
    sessions.map(async (session) => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const started = performance.now();
        await session.unsafe(next);
        onDone?.(next, (performance.now() - started) / 1000);
      }
    }),
  );
}
