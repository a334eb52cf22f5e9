import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { pulls } from "@/db/schema";

// The first time a person worked a pull (its assignee opened it, or someone changed its stage,
// owner or premium by hand): the reports' time to first touch, and what the speed-to-lead rule
// waits for. Set in the very update that records the touch, only while it is still empty, so it
// keeps the first moment whatever happens after. Automatic assignment and the carry-over of a
// refresh are the system's doing, not a touch: they leave it alone.

/** The value of `first_touched_at` in an update made by a person at `now`. */
export function firstTouch(now: Date): SQL {
  return sql`coalesce(${pulls.firstTouchedAt}, ${now.toISOString()}::timestamptz)`;
}
