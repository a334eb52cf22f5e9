import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { webhookEvents } from "@/db/schema";

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
