import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { servicingRequests } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, notFound, stale, type CommandResult } from "@/lib/core/result";
import { isSettled } from "./status";

// Staff withdraw a client's confirm link (mailed to the wrong address, or the client says they
// never asked): the page stops taking an answer at once and says the agency withdrew it. Only
// while the client has not answered: after a Confirm the carrier is already making the change.

export const revokeServicingLinkInputSchema = z.object({
  pullId: z.uuid({ message: "This form could not be read. Reload the page and try again." }),
  requestId: z.string().trim().min(1, "This form could not be read. Reload the page and try again.").max(100),
});

export async function revokeServicingLink(
  db: Db,
  actor: Actor,
  input: z.infer<typeof revokeServicingLinkInputSchema>,
): Promise<CommandResult<{ requestId: string }>> {
  const detail = await getViewablePull(db, actor, input.pullId);
  if (!detail) return notFound();
  if (!canOnPull(actor, "servicing:request", detail.workflow))
    return forbidden("This client is another agent's: only they, a manager or an admin can withdraw its links.");
  const [row] = await db
    .select()
    .from(servicingRequests)
    .where(and(eq(servicingRequests.id, input.requestId), eq(servicingRequests.pullId, input.pullId)));
  if (!row) return notFound("That request");
  if (row.linkRevokedAt) return stale("This link was already withdrawn.");
  if (row.consumerAnswer !== null || isSettled(row.status))
    return stale("The client has already answered, so there is no link left to withdraw.");
  const [revoked] = await db
    .update(servicingRequests)
    .set({ linkRevokedAt: new Date(), linkRevokedBy: actor.id, updatedAt: new Date() })
    .where(
      and(
        eq(servicingRequests.id, row.id),
        isNull(servicingRequests.linkRevokedAt),
        isNull(servicingRequests.consumerAnswer),
      ),
    )
    .returning({ id: servicingRequests.id });
  if (!revoked) return stale("The client answered just now; reload the page.");
  await recordAudit(db, actor, "CONSUMER_LINK_REVOKED", {
    pullId: input.pullId,
    details: { kind: "servicing confirm page", requestId: row.id, actionType: row.actionType },
  });
  return { ok: true, requestId: row.id };
}
