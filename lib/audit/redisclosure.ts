import "server-only";
import { desc, gte, lt, and, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { redisclosures, type RedisclosureRow } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";

// The DPPA redisclosure log (18 U.S.C. § 2721(c)): whoever passes on personal information from a
// motor vehicle record keeps, for five years, a record of each person or entity it went to and
// the permissible purpose. Every export, download, look-up answer and hand-off that carries
// driver data calls `recordRedisclosure` in the transaction that hands the data over, so the
// record exists exactly when the disclosure does. The log is append-only (a trigger, and the
// app's role may only insert and read) and no retention rule deletes from it.

export const DRIVER_DATA = "driver data";
export const INTERNAL_USE = "internal use";

export const redisclosureInputSchema = z.object({
  pullIds: z.array(z.uuid()).min(1, "A redisclosure names at least one pull."),
  /** Who received it: a person, a company or "internal use". */
  recipient: z.string().trim().min(1).max(200),
  /** The DPPA permissible purpose (a code of lib/enrichment/purposes.ts), or the purpose in words. */
  purpose: z.string().trim().min(1).max(200),
  dataKinds: z.array(z.string().trim().min(1).max(60)).min(1).default([DRIVER_DATA]),
  /** How it left: "look-up answer", "consumer data export", "hand-off"… */
  channel: z.string().trim().min(1).max(100).default("export"),
});
export type RedisclosureInput = z.input<typeof redisclosureInputSchema>;

/**
 * Records that driver data of these pulls left the app: to whom, why, by whom. Call it in the
 * same transaction as the export or hand-off. Only ids go in: never a name, email or licence
 * number (a bulk export lists its pulls' ids and their count).
 */
export async function recordRedisclosure(
  tx: Db,
  input: RedisclosureInput & { actor: Pick<Actor, "id" | "name"> | null },
): Promise<void> {
  const parsed = redisclosureInputSchema.parse(input);
  const pullIds = [...new Set(parsed.pullIds)];
  await tx.insert(redisclosures).values({
    pullIds,
    pullCount: pullIds.length,
    dataKinds: parsed.dataKinds,
    channel: parsed.channel,
    recipient: parsed.recipient,
    purpose: parsed.purpose,
    actorId: input.actor?.id ?? null,
    actorName: input.actor?.name ?? "Coverdesk",
  });
}

/** Five years: what the DPPA asks the log be kept for. Nothing in the app deletes a younger row. */
export const REDISCLOSURE_KEEP_YEARS = 5;

export const REDISCLOSURE_PAGE_SIZE = 200;

export async function listRedisclosures(
  db: Db,
  window: { from?: Date; to?: Date; limit?: number } = {},
): Promise<RedisclosureRow[]> {
  const parts: SQL[] = [];
  if (window.from) parts.push(gte(redisclosures.at, window.from));
  if (window.to) parts.push(lt(redisclosures.at, window.to));
  return db
    .select()
    .from(redisclosures)
    .where(and(...parts))
    .orderBy(desc(redisclosures.at), desc(redisclosures.id))
    .limit(window.limit ?? REDISCLOSURE_PAGE_SIZE);
}
