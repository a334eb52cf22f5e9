import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { parsePull, type Pull } from "@/lib/service/schemas";
import { winBackHeadline, winBackKey } from "./deal-return-words";
import { returnDeal } from "./deal-returns";
import { detectWinBack } from "./win-back-detect";
import { isWin } from "@/lib/core/stages";

// WIN_BACK: a WON client whose refresh shows the policy cancelled or with another carrier comes
// back to WORKING for its agent (or the queue). Called in the transaction that stores the
// refresh (lib/ingest/store-pull.ts), beside the alerts and after the carry-over that gave the
// refresh its account's WON: the same snapshot the alerts compare with is compared here. The
// key names the account, the policies and the refresh, so a redelivered refresh changes nothing.

export type WinBackInput = {
  pull: Pull;
  /** The snapshot to compare with: this pull's previous content, or the account's earlier pull. */
  before: { raw: unknown } | { pullId: string } | null;
  now?: Date;
};

export async function returnWonClient(tx: Db, { pull, before, now = new Date() }: WinBackInput): Promise<boolean> {
  if (!before || pull.status !== "SUCCESS" || pull.parent_pull_id) return false;
  const [stored] = await tx
    .select({
      stage: pulls.stage,
      assigneeId: pulls.assigneeId,
      accountIdentifier: pulls.accountIdentifier,
      wonPremiumCents: pulls.wonPremiumCents,
      stageChangedAt: pulls.stageChangedAt,
    })
    .from(pulls)
    .where(eq(pulls.pullId, pull.pull_id));
  if (!stored || !isWin(stored.stage)) return false;
  let raw: unknown;
  if ("raw" in before) raw = before.raw;
  else {
    const [row] = await tx.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, before.pullId));
    raw = row?.raw;
  }
  const previous = raw === undefined ? null : parsePull(raw);
  if (!previous?.ok) return false;
  const losses = detectWinBack(previous.pull, pull);
  const [first] = losses;
  if (!first) return false;
  const today = now.toISOString().slice(0, 10);
  return returnDeal(tx, {
    key: winBackKey(
      stored.accountIdentifier ?? pull.pull_id,
      losses.map((l) => l.policyKey),
      pull.pull_id,
    ),
    kind: "WIN_BACK",
    pullId: pull.pull_id,
    accountIdentifier: stored.accountIdentifier,
    // The day the refresh showed the loss.
    xDate: today,
    carrierLabel: first.carrierLabel,
    policyType: first.policyType,
    previousAssigneeId: stored.assigneeId,
    lostCategory: null,
    lostToCarrier: first.change === "MOVED" ? first.toCarrier : null,
    lostReason: null,
    premiumThenCents: stored.wonPremiumCents,
    renewalPremiumCents: null,
    headline: winBackHeadline({
      wonAt: stored.stageChangedAt,
      wonPremiumCents: stored.wonPremiumCents,
      losses,
      today,
    }),
    at: now,
  });
}
