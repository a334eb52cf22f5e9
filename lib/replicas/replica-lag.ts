import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { currentWalPosition } from "./own-writes";
import { reasonOf, type ReplicaSet } from "./replica-set";
import { walOffset } from "./wal-position";

// How far behind the primary each replica is, for the admin's Service connection page: in bytes
// of the primary's log not yet replayed, and in seconds since the last transaction it replayed
// was committed (0 when it has replayed all it received: an idle primary is not lag).

export type ReplicaLag =
  | {
      label: string;
      reachable: true;
      /** False: the server answers but is not a replica (promoted, or the wrong address). */
      inRecovery: boolean;
      lagBytes: number | null;
      lagSeconds: number | null;
      replayPosition: string | null;
    }
  | { label: string; reachable: false; reason: string };

export async function getReplicaLag(primary: Db, set: ReplicaSet): Promise<ReplicaLag[]> {
  if (set.replicas.length === 0) return [];
  const primaryOffset = walOffset(await currentWalPosition(primary));
  return Promise.all(
    set.replicas.map(async (replica): Promise<ReplicaLag> => {
      try {
        const [row] = await queryRows<{ in_recovery: boolean; replayed: string | null; seconds: number | null }>(
          replica.db,
          sql`select pg_is_in_recovery() as in_recovery,
                     pg_last_wal_replay_lsn()::text as replayed,
                     case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                          else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 end as seconds`,
        );
        const replayed = row?.replayed ? walOffset(row.replayed) : null;
        return {
          label: replica.label,
          reachable: true,
          inRecovery: row?.in_recovery === true,
          lagBytes: replayed !== null && primaryOffset !== null ? Math.max(0, Number(primaryOffset - replayed)) : null,
          lagSeconds: row?.seconds === null || row?.seconds === undefined ? null : Number(row.seconds),
          replayPosition: row?.replayed ?? null,
        };
      } catch (error) {
        return { label: replica.label, reachable: false, reason: reasonOf(error) };
      }
    }),
  );
}
