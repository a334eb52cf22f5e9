import "server-only";
import { and, asc, eq, lte } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { pullArchiveWrites, pulls } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import { storePull } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { fetchPullPayload, setPullArchived } from "@/lib/service/pulls-api";
import { isPlainObject, unwrapPull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, type CommandResult } from "@/lib/core/result";

// Archiving a pull in Coverdesk, written back to the service (`PATCH /pulls/{id} {is_archived}`,
// its only write on a pull). The agency's decision is kept at once, whatever the service says:
// it is stored with the pull and a pending write (pull_archive_writes) in one transaction, the
// service is told right after, and a write that did not get through is sent again by the sync
// (every 15 minutes) until it does. While it is pending, a fetched pull keeps the agency's
// decision (lib/ingest/store-pull.ts). Once told, the pull is fetched again, so the stored payload
// says what the service now holds (a re-projection from it keeps the archive); when that copy
// shows the decision the write is settled, and the service's flag rules again, so an archive
// changed on the service's dashboard shows here too.

/** How long a write that failed waits, doubling from a minute, at most six hours. */
const retryDelayMs = (attempts: number) => Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));

/** Archive ("true") or restore ("false") one pull; the form's text or a boolean. */
export const archivePullInputSchema = z.object({
  pullId: z.uuid(),
  archived: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ message: "Choose archive or restore." }),
  ),
});

export type ArchiveWriteOutcome = "told" | "waiting" | "refused";

export async function archivePull(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: { pullId: string; archived: unknown },
): Promise<CommandResult<{ archived: boolean; outcome: ArchiveWriteOutcome; message: string }>> {
  const detail = await getViewablePull(db, actor, input.pullId);
  if (!detail) return notFound();
  if (!can(actor, "pulls:archive")) return forbidden("Only managers and admins can archive a linked account.");
  const parsed = archivePullInputSchema.shape.archived.safeParse(input.archived);
  if (!parsed.success) return invalid("Choose archive or restore.");
  const archived = parsed.data;
  await db.transaction(async (tx) => {
    await tx.update(pulls).set({ isArchived: archived, updatedAt: new Date() }).where(eq(pulls.pullId, input.pullId));
    const pending = { archived, requestedAt: new Date(), attempts: 0, nextAttemptAt: new Date(), lastError: null };
    await tx
      .insert(pullArchiveWrites)
      .values({ pullId: input.pullId, ...pending })
      .onConflictDoUpdate({ target: pullArchiveWrites.pullId, set: pending });
    await recordAudit(tx, actor, "PULL_ARCHIVED", { pullId: input.pullId, details: { archived } });
  });
  const outcome = await sendArchiveWrite(db, service, input.pullId);
  const done = archived ? "Archived" : "Restored";
  const message =
    outcome === "told"
      ? `${done}, here and at the service.`
      : outcome === "waiting"
        ? `${done} here. The service could not be told yet; Coverdesk tells it again with the next sync.`
        : `${done} here. The service refused the change, so its own copy stays as it was.`;
  return { ok: true, archived, outcome, message };
}

/** Tells the service the pull's pending archive decision; the row goes once it has it. */
export async function sendArchiveWrite(db: Db, service: ServiceConfig, pullId: string): Promise<ArchiveWriteOutcome> {
  const [write] = await db.select().from(pullArchiveWrites).where(eq(pullArchiveWrites.pullId, pullId));
  if (!write) return "told";
  // Only the decision that was sent is settled: a newer one made meanwhile stays pending.
  const same = and(eq(pullArchiveWrites.pullId, pullId), eq(pullArchiveWrites.requestedAt, write.requestedAt));
  try {
    await setPullArchived(service, pullId, write.archived);
  } catch (error) {
    const attempts = write.attempts + 1;
    // A refusal (other than a rate limit or an outage) will not change by asking again.
    const refused = error instanceof ServiceError && !error.retryable;
    const lastError =
      error instanceof ServiceError
        ? `${error.code} (HTTP ${error.status || "no answer"})`
        : error instanceof Error
          ? error.message
          : String(error);
    await db
      .update(pullArchiveWrites)
      .set({
        attempts,
        lastError,
        nextAttemptAt: refused ? null : new Date(Date.now() + retryDelayMs(attempts)),
      })
      .where(same);
    return refused ? "refused" : "waiting";
  }
  if (await serviceShows(db, service, pullId, write.archived)) await db.delete(pullArchiveWrites).where(same);
  // A copy that does not show it yet (or no copy) keeps the write: the sync tells the service again.
  else
    await db
      .update(pullArchiveWrites)
      .set({ attempts: write.attempts + 1, lastError: null, nextAttemptAt: new Date(Date.now() + retryDelayMs(1)) })
      .where(same);
  return "told";
}

/** Fetches and stores the pull as the service now holds it; does that copy show the decision? */
async function serviceShows(db: Db, service: ServiceConfig, pullId: string, archived: boolean): Promise<boolean> {
  try {
    const payload = await fetchPullPayload(service, pullId);
    await storePull(db, payload);
    const pull = unwrapPull(payload);
    return isPlainObject(pull) && pull.is_archived === archived;
  } catch {
    return false; // told, not yet seen: the next sync settles it
  }
}

/** Sends every pending archive write that is due (the sync calls it before listing pulls). Never throws. */
export async function retryArchiveWrites(
  db: Db,
  service: ServiceConfig,
  options: { limit?: number; log?: (line: string) => void } = {},
): Promise<{ told: number; waiting: number; refused: number }> {
  const counts = { told: 0, waiting: 0, refused: 0 };
  try {
    const due = await db
      .select({ pullId: pullArchiveWrites.pullId })
      .from(pullArchiveWrites)
      .where(lte(pullArchiveWrites.nextAttemptAt, new Date()))
      .orderBy(asc(pullArchiveWrites.nextAttemptAt))
      .limit(options.limit ?? 200);
    for (const { pullId } of due) counts[await sendArchiveWrite(db, service, pullId)]++;
  } catch (error) {
    options.log?.(`archive writes not sent, will try again: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (counts.told + counts.waiting + counts.refused > 0)
    options.log?.(`archive writes: ${counts.told} told, ${counts.waiting} waiting, ${counts.refused} refused`);
  return counts;
}

/** The pending write of a pull, for its page: null when the service has the agency's decision. */
export async function pendingArchiveWrite(
  db: Db,
  pullId: string,
): Promise<{ archived: boolean; lastError: string | null; parked: boolean } | null> {
  const [write] = await db
    .select({
      archived: pullArchiveWrites.archived,
      lastError: pullArchiveWrites.lastError,
      nextAttemptAt: pullArchiveWrites.nextAttemptAt,
    })
    .from(pullArchiveWrites)
    .where(eq(pullArchiveWrites.pullId, pullId));
  return write ? { archived: write.archived, lastError: write.lastError, parked: write.nextAttemptAt === null } : null;
}
