import "server-only";
import { getTableColumns, isTable, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig } from "drizzle-orm/pg-core";
import { queryRows } from "@/db/connect";
import * as schema from "@/db/schema";
import { encryptionKeyRetirements, sealedColumnSweeps, userFactors, webhookEndpoints } from "@/db/schema";
import type { Db } from "@/db/types";
import { EnvError } from "@/lib/env";
import {
  currentKeyRing,
  isSealed,
  primaryKey,
  rewrapValue,
  sealValue,
  sealedKeyId,
  setRetiredKeyIds,
  type KeyRing,
} from "./key-ring";
import { openSecret } from "./secret-box";
import { SENSITIVE_KEYS, censusOf, resealSensitive, sealSensitive, type SealCensus } from "./sensitive-fields";

// Every sealed column of the database, read from the schema (the jsonb columns of type
// sealedJsonb, db/sealed-json.ts), and the passes over them: the upgrade sweep that seals what an
// older version stored in clear, the rotation that moves every value under the primary key, and
// the census of `npm run keys -- status`. They read and write the stored text with SQL, past the
// columns' codec, so a value under a key the ring no longer opens is counted, not refused.

export type SealedColumn = { key: string; table: string; column: string; primaryKey: string; primaryKeyType: string };

/** `pulls.raw`, `webhook_events.payload`, …: every sealedJsonb column with the column that names its table's rows. */
export function listSealedColumns(): SealedColumn[] {
  const found: SealedColumn[] = [];
  for (const value of Object.values(schema)) {
    if (!isTable(value)) continue;
    const table = value as PgTable;
    const config = getTableConfig(table);
    const columns = Object.values(getTableColumns(table)) as PgColumn[];
    // A table partitioned by month (the inbox, the audit trail) has the key (id, time): its `id`
    // alone, drawn from one sequence, still names one row.
    const id =
      columns.find((c) => c.primary) ??
      (config.primaryKeys[0]?.columns.some((c) => c.name === "id") ? columns.find((c) => c.name === "id") : undefined);
    for (const column of columns) {
      if (column.columnType !== "PgCustomColumn" || column.getSQLType() !== "jsonb") continue;
      if (!id) throw new Error(`${config.name}.${column.name} is sealed but its table has no one-column primary key.`);
      found.push({
        key: `${config.name}.${column.name}`,
        table: config.name,
        column: column.name,
        primaryKey: id.name,
        primaryKeyType: id
          .getSQLType()
          .replace(/^bigserial$/, "bigint")
          .replace(/^serial$/, "integer"),
      });
    }
  }
  return found;
}

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/** A row may hold a sensitive value: one of the keys (or a path ending in one) appears in its text. */
const CANDIDATE_PATTERN = `(${[...SENSITIVE_KEYS].join("|")})"`;

const BATCH = 500;

type Pass = {
  /** The document as it should be stored (the same object when nothing changes). */
  change: (doc: unknown) => unknown;
  onProgress?: (line: string) => void;
};

/** Goes through one column in batches, writing back each document `change` alters; returns how many it rewrote. */
async function passOver(db: Db, column: SealedColumn, { change, onProgress }: Pass): Promise<number> {
  let after: string | null = null;
  let rewritten = 0;
  let seen = 0;
  const id = ident(column.primaryKey);
  const col = ident(column.column);
  const table = ident(column.table);
  const type = sql.raw(column.primaryKeyType);
  for (;;) {
    const from: SQL = after === null ? sql`true` : sql`${id} > cast(${after} as ${type})`;
    const rows = await queryRows<{ id: string; doc: string; last: string }>(
      db,
      sql`select ${id}::text as id, ${col}::text as doc from ${table}
          where ${from} and ${col} is not null and ${col}::text ~ ${CANDIDATE_PATTERN}
          order by ${id} limit ${BATCH}`,
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const doc: unknown = JSON.parse(row.doc);
      const next = change(doc);
      if (next === doc) continue;
      // Only if nobody wrote the row meanwhile (the app's own write is sealed under the primary key).
      // The setting lets the owner reseal the append-only audit trail's details (migration 0035).
      await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('coverdesk.resealing', 'on', true)`);
        await tx.execute(
          sql`update ${table} set ${col} = ${JSON.stringify(next)}::jsonb
              where ${id} = cast(${row.id} as ${type}) and ${col} = ${row.doc}::jsonb`,
        );
      });
      rewritten++;
    }
    seen += rows.length;
    after = rows[rows.length - 1]?.id ?? null;
    onProgress?.(`${column.key}: ${seen} rows read, ${rewritten} rewritten`);
    if (rows.length < BATCH) break;
  }
  return rewritten;
}

/**
 * The upgrade: seals the clear values an older version stored, column by column, and records
 * each column swept so later starts skip it. Idempotent; returns how many documents it sealed.
 */
export async function sealClearValues(
  db: Db,
  ring: KeyRing = currentKeyRing(),
  onProgress?: (line: string) => void,
): Promise<number> {
  const done = new Set(
    (await db.select({ key: sealedColumnSweeps.columnKey }).from(sealedColumnSweeps)).map((r) => r.key),
  );
  let sealed = 0;
  for (const column of listSealedColumns()) {
    if (done.has(column.key)) continue;
    try {
      sealed += await passOver(db, column, { change: (doc) => sealSensitive(doc, ring), onProgress });
    } catch (error) {
      // The app's own role may not rewrite the audit trail: `npm run keys -- rotate` does, as the owner.
      if (!isPermissionDenied(error)) throw error;
      onProgress?.(`${column.key}: left for \`npm run keys -- rotate\` (this role may not rewrite it)`);
      continue;
    }
    await db.insert(sealedColumnSweeps).values({ columnKey: column.key }).onConflictDoNothing();
  }
  return sealed;
}

function isPermissionDenied(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === "42501") return true;
  return false;
}

/** A sealed secret under the primary key: the older `k1.` form sealed anew, another key's re-wrapped. */
function resealSecret(sealed: string, context: string, ring: KeyRing): string {
  if (isSealed(sealed)) return rewrapValue(sealed, ring);
  const plain = openSecret(sealed, context, undefined, ring);
  if (plain === null) throw new Error(`The secret sealed for ${context} does not open; it was left as it is.`);
  return sealValue(plain, ring, context);
}

type SealedSecret = { key: string; context: string; sealed: string };

/**
 * The secrets sealed one to a row (lib/security/secret-box.ts), each bound to its row: a second
 * factor's seed (to the user id), an outgoing webhook's signing secret and the one before its
 * rotation (to the endpoint). A rotation re-wraps them with the JSON columns, and counts them.
 */
const SEALED_SECRETS: {
  label: string;
  list: (db: Db) => Promise<SealedSecret[]>;
  replace: (db: Db, row: SealedSecret, sealed: string) => Promise<unknown>;
}[] = [
  {
    label: "user_factors.secret_sealed",
    list: async (db) =>
      (await db.select({ key: userFactors.userId, sealed: userFactors.secretSealed }).from(userFactors)).map((r) => ({
        ...r,
        context: r.key,
      })),
    replace: (db, row, sealed) =>
      db
        .update(userFactors)
        .set({ secretSealed: sealed })
        .where(sql`${userFactors.userId} = ${row.key} and ${userFactors.secretSealed} = ${row.sealed}`),
  },
  {
    label: "webhook_endpoints.secret_sealed",
    list: async (db) =>
      (await db.select({ key: webhookEndpoints.id, sealed: webhookEndpoints.secretSealed }).from(webhookEndpoints)).map(
        (r) => ({ ...r, context: `webhook-endpoint:${r.key}` }),
      ),
    replace: (db, row, sealed) =>
      db
        .update(webhookEndpoints)
        .set({ secretSealed: sealed })
        .where(sql`${webhookEndpoints.id} = ${row.key} and ${webhookEndpoints.secretSealed} = ${row.sealed}`),
  },
  {
    label: "webhook_endpoints.previous_secret_sealed",
    list: async (db) =>
      (
        await db
          .select({ key: webhookEndpoints.id, sealed: webhookEndpoints.previousSecretSealed })
          .from(webhookEndpoints)
          .where(sql`${webhookEndpoints.previousSecretSealed} is not null`)
      ).map((r) => ({ key: r.key, sealed: r.sealed ?? "", context: `webhook-endpoint:${r.key}` })),
    replace: (db, row, sealed) =>
      db
        .update(webhookEndpoints)
        .set({ previousSecretSealed: sealed })
        .where(sql`${webhookEndpoints.id} = ${row.key} and ${webhookEndpoints.previousSecretSealed} = ${row.sealed}`),
  },
];

export type KeyCensus = SealCensus & { columns: Record<string, SealCensus> };

/** How many values each key id seals, and how many sensitive values are still clear, by column. */
export async function countSealedValues(db: Db): Promise<KeyCensus> {
  const total: KeyCensus = { clear: 0, byKey: {}, columns: {} };
  for (const column of listSealedColumns()) {
    const census: SealCensus = { clear: 0, byKey: {} };
    await passOver(db, column, { change: (doc) => (censusOf(doc, census), doc) });
    total.columns[column.key] = census;
    total.clear += census.clear;
    for (const [id, n] of Object.entries(census.byKey)) total.byKey[id] = (total.byKey[id] ?? 0) + n;
  }
  for (const secrets of SEALED_SECRETS) {
    const census = { clear: 0, byKey: {} as Record<string, number> };
    for (const { sealed } of await secrets.list(db)) {
      const id = isSealed(sealed) ? sealedKeyId(sealed) : `${sealed.split(".")[0]} (${secrets.label}, before the ring)`;
      census.byKey[id] = (census.byKey[id] ?? 0) + 1;
    }
    total.columns[secrets.label] = census;
    for (const [id, n] of Object.entries(census.byKey)) total.byKey[id] = (total.byKey[id] ?? 0) + n;
  }
  return total;
}

export async function listRetiredKeyIds(db: Db): Promise<string[]> {
  return (await db.select({ id: encryptionKeyRetirements.keyId }).from(encryptionKeyRetirements)).map((r) => r.id);
}

/**
 * `npm run keys -- rotate`: every sealed value (and any clear one) under the ring's primary key,
 * then the ring's other keys recorded as retired. Refuses to retire while a value still names
 * another key (a writer that raced the pass): run it again.
 */
export async function rotateKeys(
  db: Db,
  ring: KeyRing,
  onProgress: (line: string) => void = () => {},
): Promise<{ rewritten: number; retired: string[] }> {
  const primary = primaryKey(ring);
  let rewritten = 0;
  for (const column of listSealedColumns())
    rewritten += await passOver(db, column, { change: (doc) => resealSensitive(doc, ring), onProgress });
  for (const secrets of SEALED_SECRETS) {
    const rows = await secrets.list(db);
    for (const row of rows) {
      if (isSealed(row.sealed) && sealedKeyId(row.sealed) === primary.id) continue;
      await secrets.replace(db, row, resealSecret(row.sealed, row.context, ring));
      rewritten++;
    }
    onProgress(`${secrets.label}: ${rows.length} read`);
  }
  const census = await countSealedValues(db);
  const others = Object.keys(census.byKey).filter((id) => id !== primary.id);
  if (census.clear > 0 || others.length > 0)
    throw new Error(
      `Values are still clear (${census.clear}) or under other keys (${others.join(", ") || "none"}): nothing was retired. Run the rotation again.`,
    );
  const retired = ring.keys.map((k) => k.id).filter((id) => id !== primary.id);
  if (retired.length > 0)
    await db
      .insert(encryptionKeyRetirements)
      .values(retired.map((keyId) => ({ keyId })))
      .onConflictDoNothing();
  await db
    .insert(sealedColumnSweeps)
    .values(listSealedColumns().map((c) => ({ columnKey: c.key })))
    .onConflictDoNothing();
  return { rewritten, retired };
}

/**
 * At start: this database's retired key ids join the process's ring (a value under one is then
 * refused), and a ring whose first key was retired stops the start, naming the variable.
 */
export async function loadKeyRetirements(db: Db): Promise<void> {
  const retired = await listRetiredKeyIds(db);
  setRetiredKeyIds(retired);
  const [primary] = currentKeyRing().keys;
  if (primary && retired.includes(primary.id))
    throw new EnvError(
      `COVERDESK_ENCRYPTION_KEYS: its first key (${primary.id}) was retired by a rotation; put a new key first (openssl rand -base64 32).`,
    );
}
