import "server-only";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { legalHolds, pulls, type LegalHoldRow } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import { forbidden, invalid, notFound, type CommandResult } from "@/lib/core/result";
import { RETENTION_LOCK, retentionAccountKey } from "./disposal";

// Legal holds: an admin keeps one pull, or a whole account (every pull of it, those still to
// come included), out of disposal, with a reason, until they lift it with a reason of their own.
// A hold on one pull keeps its account whole too: an account is disposed of whole or not at all
// (lib/privacy/disposal.ts). Both are audited on the pull; lifted holds stay as their record.

export const HOLD_SCOPES = ["PULL", "ACCOUNT"] as const;
export type HoldScope = (typeof HOLD_SCOPES)[number];

const INVALID_FORM_MESSAGE = "This form could not be read. Reload the page and try again.";
const REASON_MESSAGE = "Say why, in 3 to 500 characters (a matter, a letter, a request).";
const reason = z.string({ error: REASON_MESSAGE }).trim().min(3, REASON_MESSAGE).max(500, REASON_MESSAGE);

export const placeLegalHoldInputSchema = z.object({
  pullId: z.uuid(INVALID_FORM_MESSAGE),
  scope: z.enum(HOLD_SCOPES, { message: "Choose this pull or the whole account." }),
  reason,
});
export const liftLegalHoldInputSchema = z.object({
  pullId: z.uuid(INVALID_FORM_MESSAGE),
  holdId: z.coerce.number({ error: INVALID_FORM_MESSAGE }).int(INVALID_FORM_MESSAGE).positive(INVALID_FORM_MESSAGE),
  reason,
});

export type LegalHold = Pick<LegalHoldRow, "id" | "pullId" | "accountKey" | "reason" | "placedAt" | "placedByName"> & {
  scope: HoldScope;
};

const toHold = (row: LegalHoldRow): LegalHold => ({
  id: row.id,
  pullId: row.pullId,
  accountKey: row.accountKey,
  reason: row.reason,
  placedAt: row.placedAt,
  placedByName: row.placedByName,
  scope: row.pullId ? "PULL" : "ACCOUNT",
});

/** The retention account of one pull (lib/privacy/disposal.ts), or null when there is no such pull. */
export async function getRetentionAccountKey(db: Db, pullId: string): Promise<string | null> {
  const [row] = await queryRows<{ account_key: string }>(
    db,
    sql`select ${retentionAccountKey} as account_key from ${pulls} p where p.pull_id = ${pullId}`,
  );
  return row?.account_key ?? null;
}

/** Whether a standing hold keeps any of these pulls (its own, or its account's): an erasure must wait for it. */
export async function anyOnLegalHold(db: Db, pullIds: string[]): Promise<boolean> {
  if (pullIds.length === 0) return false;
  const [row] = await queryRows<{ held: boolean }>(
    db,
    sql`select exists (
      select 1 from ${pulls} p
      join ${legalHolds} h on h.lifted_at is null and (h.pull_id = p.pull_id or h.account_key = ${retentionAccountKey})
      where p.pull_id in (${sql.join(
        pullIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    ) as held`,
  );
  return row?.held === true;
}

/** The standing holds that keep this pull: its own, and its account's. */
export async function listLegalHoldsOfPull(db: Db, pullId: string): Promise<LegalHold[]> {
  const accountKey = await getRetentionAccountKey(db, pullId);
  const rows = await db
    .select()
    .from(legalHolds)
    .where(
      and(
        isNull(legalHolds.liftedAt),
        accountKey
          ? or(eq(legalHolds.pullId, pullId), eq(legalHolds.accountKey, accountKey))
          : eq(legalHolds.pullId, pullId),
      ),
    )
    .orderBy(desc(legalHolds.placedAt));
  return rows.map(toHold);
}

export type HeldItem = LegalHold & {
  /** A pull to open: the held pull, or the newest of the held account's (null when none is stored). */
  openPullId: string | null;
  /** The consumer's name as the newest pull shows it, for the admin's list. */
  name: string | null;
};

/** Every standing hold, newest first, for the retention page. */
export async function listLegalHolds(db: Db): Promise<HeldItem[]> {
  const rows = await db.select().from(legalHolds).where(isNull(legalHolds.liftedAt)).orderBy(desc(legalHolds.placedAt));
  const items: HeldItem[] = [];
  for (const row of rows) {
    const [pull] = await queryRows<{ pull_id: string; sort_name: string }>(
      db,
      row.pullId
        ? sql`select pull_id, sort_name from ${pulls} where pull_id = ${row.pullId}`
        : // The account's own pulls, by its identifier (indexed), or the one pull it is named after.
          sql`select p.pull_id, p.sort_name from ${pulls} p
              where p.parent_pull_id is null
                and (p.account_identifier = ${row.accountKey} or p.pull_id = ${uuidOrNull(row.accountKey)}::uuid)
              order by p.service_created_at desc nulls last, p.created_at desc limit 1`,
    );
    items.push({ ...toHold(row), openPullId: pull?.pull_id ?? null, name: pull?.sort_name || null });
  }
  return items;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (key: string | null) => (key && UUID.test(key) ? key : null);

/** Places a hold on a pull or its account; refused when one already stands there. */
export async function placeLegalHold(db: Db, actor: Actor, input: unknown): Promise<CommandResult<{ holdId: number }>> {
  if (!can(actor, "retention:manage")) return forbidden("Only an admin can place a legal hold.");
  const parsed = placeLegalHoldInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? INVALID_FORM_MESSAGE, issue?.path.join("."));
  }
  const { pullId, scope } = parsed.data;
  return db.transaction(async (tx): Promise<CommandResult<{ holdId: number }>> => {
    // Disposal takes the same lock: a run either sees this hold or has finished its batch.
    await tx.execute(RETENTION_LOCK);
    const accountKey = await getRetentionAccountKey(tx, pullId);
    if (!accountKey) return notFound();
    const subject = scope === "PULL" ? { pullId, accountKey: null } : { pullId: null, accountKey };
    const [standing] = await tx
      .select({ id: legalHolds.id })
      .from(legalHolds)
      .where(
        and(
          isNull(legalHolds.liftedAt),
          subject.pullId ? eq(legalHolds.pullId, pullId) : eq(legalHolds.accountKey, accountKey),
        ),
      );
    if (standing)
      return {
        ok: false,
        code: "CONFLICT",
        message: scope === "PULL" ? "This pull is already on legal hold." : "This account is already on legal hold.",
      };
    const [hold] = await tx
      .insert(legalHolds)
      .values({ ...subject, reason: parsed.data.reason, placedBy: actor.id, placedByName: actor.name })
      .returning({ id: legalHolds.id });
    if (!hold) throw new Error("legal hold not stored");
    await recordAudit(tx, actor, "LEGAL_HOLD_PLACED", {
      pullId,
      details: { holdId: hold.id, scope, reason: parsed.data.reason },
    });
    return { ok: true, holdId: hold.id };
  });
}

/** Lifts a standing hold (one that keeps this pull); the hold stays as the record of it. */
export async function liftLegalHold(db: Db, actor: Actor, input: unknown): Promise<CommandResult> {
  if (!can(actor, "retention:manage")) return forbidden("Only an admin can lift a legal hold.");
  const parsed = liftLegalHoldInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? INVALID_FORM_MESSAGE, issue?.path.join("."));
  }
  const { pullId, holdId } = parsed.data;
  return db.transaction(async (tx): Promise<CommandResult> => {
    await tx.execute(RETENTION_LOCK);
    const keeping = await listLegalHoldsOfPull(tx, pullId);
    const hold = keeping.find((h) => h.id === holdId);
    if (!hold)
      return { ok: false, code: "STALE", message: "That hold has been lifted already, or is not this pull's." };
    await tx
      .update(legalHolds)
      .set({ liftedAt: new Date(), liftedBy: actor.id, liftedByName: actor.name, liftReason: parsed.data.reason })
      .where(and(eq(legalHolds.id, holdId), isNull(legalHolds.liftedAt)));
    await recordAudit(tx, actor, "LEGAL_HOLD_LIFTED", {
      pullId,
      details: { holdId, scope: hold.scope, reason: parsed.data.reason },
    });
    return { ok: true };
  });
}
