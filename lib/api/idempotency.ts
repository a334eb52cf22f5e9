import "server-only";
import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { columnName } from "@/db/sql";
import { apiIdempotency } from "@/db/schema";
import type { Db } from "@/db/types";
import type { ApiAnswer } from "./errors";

// Idempotency-Key on POST and PATCH: the first answer is kept for 24 hours and replayed to a
// retry with the same key; the same key with another request is refused. Two copies of one
// request racing: the unique (key, Idempotency-Key) row lets one in, the other is told to retry
// (409) while the first is still running, and gets the replay after.

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request that has not answered after this long is taken as dead (its process stopped). */
const ABANDONED_AFTER_SECONDS = 60;

export type IdempotencyClaim =
  { kind: "claimed" } | { kind: "replay"; answer: ApiAnswer } | { kind: "mismatch" } | { kind: "in-progress" };

export const requestHash = (method: string, path: string, body: string): string =>
  createHash("sha256").update(`${method.toUpperCase()} ${path}\n${body}`).digest("hex");

/** Takes the Idempotency-Key for this request, or says what was answered under it before. */
export async function claimIdempotencyKey(
  db: Db,
  keyId: string,
  idempotencyKey: string,
  hash: string,
): Promise<IdempotencyClaim> {
  const t = apiIdempotency;
  const claimed = await queryRows<{ key_id: string }>(
    db,
    sql`insert into ${t} (${columnName(t.keyId)}, ${columnName(t.idempotencyKey)}, ${columnName(t.requestHash)})
        values (${keyId}, ${idempotencyKey}, ${hash})
        on conflict (${columnName(t.keyId)}, ${columnName(t.idempotencyKey)}) do update
          set ${columnName(t.requestHash)} = excluded.${columnName(t.requestHash)}, ${columnName(t.status)} = null,
              ${columnName(t.responseBody)} = null, ${columnName(t.createdAt)} = now()
          where ${t.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
             or (${t.status} is null and ${t.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))
        returning ${t.keyId}`,
  );
  if (claimed.length > 0) return { kind: "claimed" };
  const [row] = await db
    .select({ requestHash: t.requestHash, status: t.status, responseBody: t.responseBody })
    .from(t)
    .where(and(eq(t.keyId, keyId), eq(t.idempotencyKey, idempotencyKey)));
  // Removed between the two statements (the first request failed): the client may simply retry.
  if (!row) return { kind: "in-progress" };
  if (row.requestHash !== hash) return { kind: "mismatch" };
  if (row.status === null) return { kind: "in-progress" };
  return { kind: "replay", answer: { status: row.status, body: row.responseBody } };
}

/** Keeps the first answer for the replays. */
export async function saveIdempotentAnswer(
  db: Db,
  keyId: string,
  idempotencyKey: string,
  answer: ApiAnswer,
): Promise<void> {
  await db
    .update(apiIdempotency)
    .set({ status: answer.status, responseBody: answer.body ?? null })
    .where(and(eq(apiIdempotency.keyId, keyId), eq(apiIdempotency.idempotencyKey, idempotencyKey)));
}

/** Lets the key go when the first request failed without an answer worth keeping (a crash). */
export async function releaseIdempotencyKey(db: Db, keyId: string, idempotencyKey: string): Promise<void> {
  await db
    .delete(apiIdempotency)
    .where(and(eq(apiIdempotency.keyId, keyId), eq(apiIdempotency.idempotencyKey, idempotencyKey)));
}

/** Removes the answers older than 24 hours (the scheduled api-idempotency-cleanup job). */
export async function deleteExpiredIdempotencyRecords(db: Db): Promise<number> {
  const removed = await db
    .delete(apiIdempotency)
    .where(lt(apiIdempotency.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`))
    .returning({ keyId: apiIdempotency.keyId });
  return removed.length;
}
