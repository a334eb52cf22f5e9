import "server-only";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { openReplica, type ReplicaConnection } from "@/db/replica";
import { walOffset } from "./wal-position";

// The streaming replicas of the primary (DATABASE_REPLICA_URLS), and how far each has replayed
// the primary's log. The replay position is asked at most every REPLAY_CACHE_MS, one question in
// flight per replica, so a busy page does not pay a round trip per request for it. A stale cached
// position only ever understates the replica (replay moves forward), so the cache can send a
// read to the primary that the replica could have served, never a user's read to a replica that
// has not yet replayed their write.
//
// A replica that does not answer is set aside for DOWN_RETRY_MS, with one line in the log when it
// goes and one when it comes back; reads go to the primary meanwhile, never to an error page.

/** How long a replica's replay position is reused. */
export const REPLAY_CACHE_MS = 200;
/** How long a replica that failed is left alone before it is asked again. */
export const DOWN_RETRY_MS = 5_000;
/**
 * A replica further behind than this serves nobody: it has stopped replaying, or cannot keep up,
 * and every report read from it would be that old. Reads go to the primary until it catches up.
 */
export const MAX_LAG_SECONDS = 30;
/** How long the replay position may take to come back before the replica counts as unreachable. */
const PROBE_TIMEOUT_MS = 1_500;

export type Replica = ReplicaConnection & {
  /** Whether the last question reached it (and it is a replica). */
  up: boolean;
};

type State = {
  replica: Replica;
  /** The replay position last read (null: too far behind to use), and when. */
  replayed: { offset: bigint | null; at: number } | null;
  /** Whether it was too far behind at the last question (for the log's "caught up"). */
  lagging: boolean;
  pending: Promise<bigint | null> | null;
  /** While it is set aside after a failure. */
  downUntil: number;
};

export type ReplicaSet = {
  replicas: readonly Replica[];
  /** The replica's replay position (cached briefly), or null when it cannot be used now. */
  replayedOffset: (replica: Replica) => Promise<bigint | null>;
  /** A read on it failed for want of a connection: set it aside, as a failed probe would. */
  setAside: (replica: Replica, error: unknown) => void;
  close: () => Promise<void>;
};

export type ReplicaSetOptions = {
  maxConnections?: number;
  connectTimeoutSeconds?: number;
  /** A replica further behind serves nobody (MAX_LAG_SECONDS by default). */
  maxLagSeconds?: number;
  /** For tests: the clock. */
  now?: () => number;
  /** Where a replica going and coming back is written (console by default). */
  log?: (line: string) => void;
};

export function openReplicaSet(urls: readonly string[], options: ReplicaSetOptions = {}): ReplicaSet {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.warn(line));
  const maxLag = options.maxLagSeconds ?? MAX_LAG_SECONDS;
  const states = urls.map<State>((url) => ({
    replica: { ...openReplica(url, options), up: true },
    replayed: null,
    lagging: false,
    pending: null,
    downUntil: 0,
  }));
  const stateOf = (replica: Replica): State => {
    const state = states.find((candidate) => candidate.replica === replica);
    if (!state) throw new Error(`Not a replica of this set: ${replica.label}`);
    return state;
  };

  const markDown = (state: State, reason: string) => {
    state.downUntil = now() + DOWN_RETRY_MS;
    state.replayed = null;
    if (state.replica.up) log(`[replicas] ${state.replica.label} set aside, reads go to the primary: ${reason}`);
    state.replica.up = false;
  };

  const probe = async (state: State): Promise<bigint | null> => {
    try {
      // Behind: since the last transaction it replayed was committed, unless it has replayed
      // all it received (an idle primary is not lag).
      const [row] = await withTimeout(
        queryRows<{ replayed: string | null; behind: number | null }>(
          state.replica.db,
          sql`select pg_last_wal_replay_lsn()::text as replayed,
                     case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                          else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 end as behind`,
        ),
        PROBE_TIMEOUT_MS,
      );
      const offset = row?.replayed ? walOffset(row.replayed) : null;
      // Null: this server is not in recovery. A promoted replica is no longer fed by the primary,
      // so what it holds is not the primary's data any more.
      if (offset === null) {
        markDown(state, "it is not a replica (pg_last_wal_replay_lsn() is null)");
        return null;
      }
      if (!state.replica.up) log(`[replicas] ${state.replica.label} is back, reads may go to it again`);
      state.replica.up = true;
      const behind = Number(row?.behind ?? 0);
      const lagging = behind > maxLag;
      if (lagging && !state.lagging)
        log(
          `[replicas] ${state.replica.label} is ${Math.round(behind)} s behind (over ${maxLag} s): reads go to the primary`,
        );
      if (!lagging && state.lagging) log(`[replicas] ${state.replica.label} has caught up, reads may go to it again`);
      state.lagging = lagging;
      state.replayed = { offset: lagging ? null : offset, at: now() };
      return state.replayed.offset;
    } catch (error) {
      markDown(state, reasonOf(error));
      return null;
    }
  };

  return {
    replicas: states.map((state) => state.replica),
    replayedOffset: async (replica) => {
      const state = stateOf(replica);
      const at = now();
      if (at < state.downUntil) return null;
      if (state.replayed && at - state.replayed.at < REPLAY_CACHE_MS) return state.replayed.offset;
      state.pending ??= probe(state).finally(() => {
        state.pending = null;
      });
      return state.pending;
    },
    setAside: (replica, error) => markDown(stateOf(replica), reasonOf(error)),
    close: async () => {
      await Promise.all(states.map((state) => state.replica.close()));
    },
  };
}

/**
 * What the log says of a failure: the driver's code and message. drizzle wraps a failed query in
 * an error whose message holds the SQL and its parameters (a name searched for, say): the log
 * takes the driver's error under it instead.
 */
export function reasonOf(error: unknown): string {
  const cause = driverError(error);
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}

/** The innermost error: the driver's, under drizzle's wrapping. */
export function driverError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++)
    current = current.cause;
  return current;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
