import "server-only";
import { withReplicas } from "drizzle-orm/pg-core";
import type { Db } from "@/db/types";
import { hasReached } from "./wal-position";
import { driverError, reasonOf, type Replica, type ReplicaSet } from "./replica-set";

// Which database serves a heavy read (a report, a CSV export, the X-date and cross-sell lists): a replica that has replayed the reader's own last write, else the
// primary. Only the callers of withReadDb (lib/database.ts) come here; every other read of the
// app stays on the primary, where a user always sees what they just did.

export type ReadChoice = { db: Db; served: "primary" } | { db: Db; served: "replica"; replica: Replica };

/**
 * The replica's reads with the primary's writes: drizzle's withReplicas sends select, the
 * relational queries and `with` to the replica, insert, update, delete and transactions to the
 * primary (a CSV export's audit line is written there). Its `execute` would go to the primary
 * too; our reports are partly raw SQL (queryRows), so it goes to the replica here. A raw write
 * through `execute` on this path would fail on the read-only replica, and readFrom would then run
 * the whole read again on the primary.
 */
export function replicaReads(primary: Db, replica: Db): Db {
  const combined = withReplicas(primary, [replica], () => replica);
  return Object.assign(combined, { execute: ((query) => replica.execute(query)) as Db["execute"] });
}

/** The database for this read: a replica that has replayed `written` (the reader's last write), or the primary. */
export async function chooseRead(primary: Db, set: ReplicaSet, written: bigint | null): Promise<ReadChoice> {
  const offsets = await Promise.all(set.replicas.map((replica) => set.replayedOffset(replica)));
  const ready = set.replicas.filter((_, i) => {
    const offset = offsets[i] ?? null;
    return offset !== null && hasReached(offset, written);
  });
  const replica = ready[Math.floor(Math.random() * ready.length)];
  return replica
    ? { db: replicaReads(primary, replica.db), served: "replica", replica }
    : { db: primary, served: "primary" };
}

/**
 * Runs a read on the chosen database. A replica that fails it (gone, a query cancelled by a
 * conflict with replay, a write that cannot run there) costs a log line and a second run on the
 * primary, never an error page; a failure on the primary is the caller's, as for any read.
 */
export async function readFrom<T>(
  primary: Db,
  set: ReplicaSet,
  written: bigint | null,
  run: (db: Db, served: ReadChoice["served"]) => Promise<T>,
): Promise<T> {
  const choice = await chooseRead(primary, set, written);
  if (choice.served === "primary") return run(primary, "primary");
  try {
    return await run(choice.db, "replica");
  } catch (error) {
    if (lostConnection(error)) set.setAside(choice.replica, error);
    else
      console.warn(
        `[replicas] a read on ${choice.replica.label} failed, running it on the primary: ${reasonOf(error)}`,
      );
    return run(primary, "primary");
  }
}

/** Errors that say the replica is not there (the driver's own codes), as opposed to one query failing on it. */
function lostConnection(error: unknown): boolean {
  const code = (driverError(error) as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    (/^(ECONN|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|CONNECT_TIMEOUT|CONNECTION_)/.test(code) ||
      // admin_shutdown, crash_shutdown, cannot_connect_now: the server is stopping or starting.
      ["57P01", "57P02", "57P03"].includes(code))
  );
}
