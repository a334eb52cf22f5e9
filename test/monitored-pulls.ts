import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { expect } from "vitest";
import { pulls } from "@/db/schema";
import type { Db } from "@/db/types";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";

// What the tests of pulls.monitored share: a pull of a chosen account, stored as ingestion
// stores it, and the flag the database keeps for it.

const templates = generatePulls(11, 12, new Date("2026-11-01T00:00:00Z")).filter(
  (p) => !p.parent_pull_id && !p.is_archived,
);

/**
 * A top-level pull of `account` (a sandbox payload under a new id), stored as ingestion stores
 * it; answers its id. `again` stores that pull once more with another payload's content.
 */
export async function storeAccountPull(db: Db, account: string | null, again?: string): Promise<string> {
  const pullId = again ?? randomUUID();
  const template = templates[again ? 1 : 0] as SandboxPull;
  expect(await storePull(db, { ...template, pull_id: pullId, account_identifier: account })).toMatchObject({
    outcome: again ? "updated" : "created",
  });
  return pullId;
}

/** pulls.monitored of each id (false for an id not stored). */
export async function monitoredOf(db: Db, ...ids: string[]): Promise<Record<string, boolean>> {
  const rows = await db
    .select({ pullId: pulls.pullId, monitored: pulls.monitored })
    .from(pulls)
    .where(inArray(pulls.pullId, ids));
  return Object.fromEntries(ids.map((id) => [id, rows.find((r) => r.pullId === id)?.monitored ?? false]));
}
