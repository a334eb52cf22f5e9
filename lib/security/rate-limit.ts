import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { columnName } from "@/db/sql";
import { rateLimitWindows } from "@/db/schema";
import type { Db } from "@/db/types";

// A fixed-window counter in the database, so that a limit holds across every app instance and
// survives a restart. Used where strangers can knock: the public reconnect page and sign-in.

export type RateLimit = { limit: number; windowSeconds: number };
export type RateDecision = { allowed: boolean; hits: number; retryAfterSeconds: number };

/** The start of the current window of `windowSeconds`, by the database's clock (shared by every instance). */
const windowOf = (windowSeconds: number) =>
  sql`to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds})`;

/** Counts one attempt under `key` and says whether it is within the limit. */
export async function hitRateLimit(db: Db, key: string, { limit, windowSeconds }: RateLimit): Promise<RateDecision> {
  const [row] = await queryRows<{ hits: number; retry_after: number }>(
    db,
    sql`insert into ${rateLimitWindows} (${columnName(rateLimitWindows.key)}, ${columnName(rateLimitWindows.windowStart)}, ${columnName(rateLimitWindows.hits)})
        values (${key}, ${windowOf(windowSeconds)}, 1)
        on conflict (${columnName(rateLimitWindows.key)}, ${columnName(rateLimitWindows.windowStart)})
          do update set ${columnName(rateLimitWindows.hits)} = ${rateLimitWindows.hits} + 1
        returning ${rateLimitWindows.hits}, ceil(extract(epoch from ${rateLimitWindows.windowStart}) + ${windowSeconds} - extract(epoch from now()))::int as retry_after`,
  );
  const hits = Number(row?.hits ?? 1);
  // Old windows are dead weight; about one call in fifty sweeps those older than a day.
  if (Math.random() < 0.02)
    await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, sql`now() - interval '1 day'`));
  return { allowed: hits <= limit, hits, retryAfterSeconds: Math.max(1, Number(row?.retry_after ?? windowSeconds)) };
}

/** Whether `key` is already over its limit in the current window, without counting an attempt. */
export async function isRateLimited(db: Db, key: string, { limit, windowSeconds }: RateLimit): Promise<boolean> {
  const [row] = await db
    .select({ hits: rateLimitWindows.hits })
    .from(rateLimitWindows)
    .where(and(eq(rateLimitWindows.key, key), eq(rateLimitWindows.windowStart, windowOf(windowSeconds))));
  return Number(row?.hits ?? 0) >= limit;
}
