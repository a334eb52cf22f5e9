import "server-only";
import { enqueueEvent } from "@/lib/webhooks/events";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/types";
import { alerts, pulls } from "@/db/schema";
import { DASH, fullName } from "@/lib/format";
import { parsePull, type Pull } from "@/lib/service/schemas";
import type { JumpThresholds } from "@/lib/rules/jump-thresholds";
import { detectAlerts } from "./detect";
import { getAgencyRules } from "@/lib/rules/agency-rules";

// Raising the alerts of a refresh, in the transaction that stores it (lib/ingest/store-pull.ts):
// the account's previous snapshot against the new one. The alert goes to whoever holds the
// pull once the carry-over has run (its agent), or to the queue. `on conflict do nothing` on the
// key is what makes a redelivered or reprocessed refresh raise nothing new.

export type RaiseInput = {
  pull: Pull;
  /** The snapshot to compare with: this pull's previous content, or the account's earlier pull. */
  before: { raw: unknown } | { pullId: string } | null;
  today?: string;
  thresholds?: JumpThresholds;
};

export async function raiseRefreshAlerts(tx: Db, { pull, before, today, thresholds }: RaiseInput): Promise<number> {
  if (!before || pull.status !== "SUCCESS" || pull.parent_pull_id) return 0;
  let raw: unknown;
  if ("raw" in before) raw = before.raw;
  else {
    const [row] = await tx.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, before.pullId));
    raw = row?.raw;
  }
  const previous = raw === undefined ? null : parsePull(raw);
  if (!previous?.ok) return 0;
  const rules = thresholds ? { jumpThresholds: thresholds } : await getAgencyRules(tx);
  // The account as stored (lib/pulls/account-key.ts): the service's pulls often lack their own identifier.
  const [holder] = await tx
    .select({ assigneeId: pulls.assigneeId, accountIdentifier: pulls.accountIdentifier })
    .from(pulls)
    .where(eq(pulls.pullId, pull.pull_id));
  const found = detectAlerts(previous.pull, pull, {
    account: holder?.accountIdentifier ?? pull.pull_id,
    today: today ?? new Date().toISOString().slice(0, 10),
    thresholds: rules.jumpThresholds,
  });
  if (found.length === 0) return 0;
  const name = fullName(pull);
  const inserted = await tx
    .insert(alerts)
    .values(
      found.map((alert) => ({
        key: alert.key,
        kind: alert.kind,
        pullId: pull.pull_id,
        accountIdentifier: holder?.accountIdentifier ?? null,
        holderName: name !== DASH ? name : (pull.account_email ?? pull.email ?? ""),
        headline: alert.headline,
        details: alert.details,
        beforeCents: alert.beforeCents,
        afterCents: alert.afterCents,
        assigneeId: holder?.assigneeId ?? null,
      })),
    )
    .onConflictDoNothing({ target: alerts.key })
    .returning({ id: alerts.id, kind: alerts.kind });
  for (const alert of inserted)
    await enqueueEvent(tx, "alert.raised", { alert_id: String(alert.id), pull_id: pull.pull_id, kind: alert.kind });
  return inserted.length;
}
