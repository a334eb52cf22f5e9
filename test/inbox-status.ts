import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { webhookEvents } from "@/db/schema";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";

// The webhook inbox as the ingestion tests watch it: events by status, each with its highest
// attempt count, and a wait that names that state when it times out.

export type InboxStatus = Record<string, { n: number; most: number }>;

export async function inboxByStatus(db: Db): Promise<InboxStatus> {
  const rows = await db
    .select({
      status: webhookEvents.status,
      n: sql<number>`count(*)::int`,
      most: sql<number>`max(${webhookEvents.attempts})::int`,
    })
    .from(webhookEvents)
    .groupBy(webhookEvents.status);
  return Object.fromEntries(rows.map((r) => [r.status, { n: r.n, most: r.most }]));
}

/** Polls `check` every 50 ms; past `ms`, fails naming `what` and the inbox's state. */
export async function waitForInbox(
  db: Db,
  what: string,
  check: () => Promise<boolean> | boolean,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await inboxByStatus(db))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Receives one webhook of each `types` for each pull, as the service would send them; each must be taken in. */
export async function receiveEvents(db: Db, pullIds: readonly string[], types: readonly string[]): Promise<void> {
  for (const pullId of pullIds)
    for (const type of types) {
      const result = await receiveWebhook(
        db,
        JSON.stringify({ event_type: type, pull_id: pullId, status: "SUCCESS", data: {} }),
        { webhookSecret: null, signatureHeader: null },
      );
      if (result.status !== 202) throw new Error(`${type} for ${pullId} was answered ${result.status}`);
    }
}
