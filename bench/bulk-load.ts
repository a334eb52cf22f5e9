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
 * Runs `work` with no trigger firing for this session's writes (session_replication_role =
 * replica, the server's own switch for bulk copies: it fires only triggers marked ENABLE
 * REPLICA or ALWAYS, and the app marks none). During the load the triggers would cost the
 * most where they do the least: migration 0026's, which keep pulls.monitored, would look up
 * the pulls of each chunk's monitored accounts without their index (a scan of every pull loaded
 * so far, a thousand times over at a million pulls); migration 0046's would mark every row
 * written for the reports' rollups. This covers them and any trigger a later migration adds
 * to these tables, changes no catalog (an ALTER TABLE … DISABLE TRIGGER that a seed stopped
 * half-way left behind), and holds for this connection alone. The seed then derives what the
 * triggers keep once for the whole book: reconcileMonitoredFlags and report_rollups_rebuild().
 */
export async function withoutTriggers<T>(session: Session, work: () => Promise<T>): Promise<T> {
  await session.unsafe("set session_replication_role = replica");
  try {
    return await work();
  } finally {
    await session.unsafe("reset session_replication_role");
  }
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
