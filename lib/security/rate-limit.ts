import "server-only";
import { lt, sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import { rateLimitWindows } from "@/db/schema";
import type { Db } from "@/db/types";

// A fixed-window counter in the database, so that a limit holds across every app instance and
// survives a restart. Used where strangers can knock: the public reconnect page and sign-in.

export type RateLimit = { limit: number; windowSeconds: number };
export type RateDecision = { allowed: boolean; hits: number; retryAfterSeconds: number };

/** Counts one attempt under `key` and says whether it is within the limit. */
export async function hitRateLimit(db: Db, key: string, { limit, windowSeconds }: RateLimit): Promise<RateDecision> {
  const [row] = await queryRows<{ hits: number; retry_after: number }>(
    db,
    sql`insert into rate_limit_windows as w (key, window_start, hits)
        values (${key}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}), 1)
        on conflict (key, window_start) do update set hits = w.hits + 1
        returning w.hits, ceil(extract(epoch from w.window_start) + ${windowSeconds} - extract(epoch from now()))::int as retry_after`,
  );
  const hits = Number(row?.hits ?? 1);
  // Old windows are dead weight; about one call in fifty sweeps those older than a day.
  if (Math.random() < 0.02)
    await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, sql`now() - interval '1 day'`));
  return { allowed: hits <= limit, hits, retryAfterSeconds: Math.max(1, Number(row?.retry_after ?? windowSeconds)) };
}

/** Whether `key` is already over its limit in the current window, without counting an attempt. */
export async function isRateLimited(db: Db, key: string, { limit, windowSeconds }: RateLimit): Promise<boolean> {
  const [row] = await queryRows<{ hits: number }>(
    db,
    sql`select hits from rate_limit_windows
        where key = ${key} and window_start = to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds})`,
  );
  return Number(row?.hits ?? 0) >= limit;
}
