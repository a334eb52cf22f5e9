import "server-only";
import { asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { dealReturns, pulls } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { returnRecycledDeals } from "@/lib/workflow/deal-returns";
import { setPullStage } from "@/lib/workflow/funnel";

// The demo's deals that came back: the RECYCLED scan run as it would have run ten days before
// the end of the history (the lost deals whose X-dates were then within the lead time come
// back), and the first of them won again two days before the end, so My pulls shows "Came
// back" and Reports a recycled win on the first run. Dated, like the rest of the history, so
// a rebuild from the same seed and end is the same; run again, it finds everything done (the
// returns' keys, and a return already won).

const DAY = 86_400_000;

export async function bringDemoDealsBack(
  db: Db,
  { until, agents, manager }: { until: Date; agents: Array<Actor & { isActive: boolean }>; manager: Actor },
): Promise<{ returned: number; won: boolean }> {
  const at = new Date(until.getTime() - 10 * DAY);
  const returned = await returnRecycledDeals(db, { today: at.toISOString().slice(0, 10), now: at });
  const [already] = await db
    .select({ id: dealReturns.id })
    .from(dealReturns)
    .where(isNotNull(dealReturns.wonAt))
    .limit(1);
  if (already) return { returned, won: false };
  const [first] = await db
    .select({
      pullId: dealReturns.pullId,
      premiumThenCents: dealReturns.premiumThenCents,
      assigneeId: pulls.assigneeId,
      stage: pulls.stage,
    })
    .from(dealReturns)
    .innerJoin(pulls, eq(pulls.pullId, dealReturns.pullId))
    .where(eq(dealReturns.kind, "RECYCLED"))
    .orderBy(asc(dealReturns.xDate), asc(dealReturns.pullId))
    .limit(1);
  if (!first || first.stage !== "WORKING") return { returned, won: false };
  // Won back a little under what it was lost at: the agent who has it, or the manager for the queue.
  const cents = Math.max(10_000, Math.round(((first.premiumThenCents ?? 150_000) * 97) / 100));
  const winner = agents.find((a) => a.id === first.assigneeId && a.isActive) ?? manager;
  const result = await setPullStage(
    db,
    winner,
    { pullId: first.pullId, stage: "WON", premium: (cents / 100).toFixed(2) },
    new Date(until.getTime() - 2 * DAY),
  );
  return { returned, won: result.ok };
}
