import "server-only";
import type { Db } from "@/db/types";

/**
 * The primary behind a database that reads from a replica (read-routing.ts hands heavy reads a
 * database whose `$primary` is the primary), or the database itself. Kept sums are brought up to
 * date on it before they are read: the write cannot run on the read-only replica, which then
 * shows the sums as of its replay, a moment behind.
 */
export function primaryOf(db: Db): Db {
  return "$primary" in db ? (db as Db & { $primary: Db }).$primary : db;
}
