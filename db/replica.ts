import "server-only";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { reconnectDelaySeconds } from "./connect";
import * as schema from "./schema";
import type { Db } from "./types";

// A streaming replica of the primary's cluster, opened for reading: no migrations (a replica is
// read-only; it has the primary's schema as soon as it has replayed the migration), and short
// timeouts, so that a replica that went away costs a request a second or two before it is
// given up for the primary, not the driver's default thirty.

export type ReplicaConnection = {
  db: Db;
  /** The address without its password, for logs and the admin's page. */
  label: string;
  close: () => Promise<void>;
};

export function openReplica(url: string, options: { maxConnections?: number; connectTimeoutSeconds?: number } = {}) {
  const client = postgres(url, {
    max: options.maxConnections ?? 5,
    onnotice: () => {},
    backoff: reconnectDelaySeconds,
    connect_timeout: options.connectTimeoutSeconds ?? 2,
    connection: { jit: "off" },
  });
  const db = drizzlePostgres(client, { schema, casing: "snake_case" }) as unknown as Db;
  return { db, label: replicaLabel(url), close: () => client.end({ timeout: 2 }) } satisfies ReplicaConnection;
}

/** host:port/database of a replica's URL: what an operator needs to tell replicas apart, no secret. */
export function replicaLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}
