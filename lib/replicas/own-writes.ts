import "server-only";
import { sql } from "drizzle-orm";
import { cookies } from "next/headers";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { walOffset, walPositionSchema } from "./wal-position";

// Read-your-writes across app instances: after a user's write (any guarded server action, any
// guarded route that is not a GET), the primary's WAL position goes into a cookie; a heavy read
// for that browser goes to a replica only once the replica has replayed that far.
//
// Why a cookie, and not a map in memory or a table: behind a load balancer the next request may
// reach another instance, which a map in this process cannot tell; a table would cost every
// write a second write and every read a lookup on the primary, the load replicas are there to
// take away. The cookie needs neither. It is not signed: it only chooses between the primary and
// a replica for its own browser, and reveals nothing (a position in the log, no data). A forged
// one far ahead sends its own reads to the primary; one behind lets its own reads be as old as
// the replica, which any other user's are anyway.

export const OWN_WRITE_COOKIE = "coverdesk_wal";
/** Long past any healthy replica's lag; a replica further behind is an incident the admin page shows. */
const COOKIE_MAX_AGE_SECONDS = 15 * 60;

/** The primary's position in its log now: at or past the end of every transaction committed so far. */
export async function currentWalPosition(primary: Db): Promise<string> {
  const [row] = await queryRows<{ position: string }>(primary, sql`select pg_current_wal_lsn()::text as position`);
  if (!row?.position) throw new Error("pg_current_wal_lsn() answered nothing");
  return row.position;
}

/** Remembers, for this browser, that its reads must wait for the primary's current position. */
export async function rememberOwnWrite(primary: Db, options: { secure: boolean }): Promise<string> {
  const position = await currentWalPosition(primary);
  (await cookies()).set(OWN_WRITE_COOKIE, position, {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    maxAge: COOKIE_MAX_AGE_SECONDS,
  });
  return position;
}

/** The position this browser's last write reached, or null (none recent, or a cookie that is not one). */
export async function ownWriteOffset(): Promise<bigint | null> {
  let raw: string | undefined;
  try {
    raw = (await cookies()).get(OWN_WRITE_COOKIE)?.value;
  } catch {
    return null; // outside a request (a job, a script): nobody's own write to wait for
  }
  const parsed = walPositionSchema.safeParse(raw);
  return parsed.success ? walOffset(parsed.data) : null;
}
