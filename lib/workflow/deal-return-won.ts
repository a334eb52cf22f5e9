import "server-only";
import { and, desc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { dealReturns, pulls } from "@/db/schema";

// A deal that came back and is won again: the stage command (./funnel.ts) calls this in its own
// transaction, so the recycled-wins report counts it from the moment of the win. The account's
// latest open return is the one won (a refresh stored since the return is the same deal), and
// only one: an older return that was lost again must not count the same win twice.

export async function markDealReturnWon(
  tx: Db,
  win: {
    pullId: string;
    at: Date;
    premiumCents: number | null;
    /** The pull was WON already: a corrected premium, not a new win. */
    wasWon: boolean;
  },
): Promise<void> {
  if (win.wasWon) {
    // The premium of a win already counted is corrected where it was counted.
    const [latest] = await tx
      .select({ id: dealReturns.id })
      .from(dealReturns)
      .where(and(eq(dealReturns.pullId, win.pullId), isNotNull(dealReturns.wonAt)))
      .orderBy(desc(dealReturns.wonAt), desc(dealReturns.id))
      .limit(1);
    if (latest)
      await tx.update(dealReturns).set({ wonPremiumCents: win.premiumCents }).where(eq(dealReturns.id, latest.id));
    return;
  }
  const account = sql`(select ${pulls.accountIdentifier} from ${pulls} where ${pulls.pullId} = ${win.pullId})`;
  const [open] = await tx
    .select({ id: dealReturns.id })
    .from(dealReturns)
    .where(
      and(
        isNull(dealReturns.wonAt),
        sql`${dealReturns.returnedAt} <= ${win.at.toISOString()}::timestamptz`,
        or(eq(dealReturns.pullId, win.pullId), sql`${dealReturns.accountIdentifier} = ${account}`),
      ),
    )
    .orderBy(desc(dealReturns.returnedAt), desc(dealReturns.id))
    .limit(1);
  if (open)
    await tx
      .update(dealReturns)
      .set({ wonAt: win.at, wonPremiumCents: win.premiumCents })
      .where(eq(dealReturns.id, open.id));
}
