import "server-only";
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * The redisclosure log of the Driver's Privacy Protection Act (18 U.S.C. § 2721(c)): every
 * export, download, look-up answer and hand-off that carries driver data, with whom it went to
 * and why, kept five years. Written in the same transaction as what it records
 * (lib/audit/redisclosure.ts). Append-only like the audit trail (a trigger of migration 0035,
 * and the app's role may only read and insert), and no retention rule deletes from it. It
 * names pulls by id only: no consumer's name, email or licence number.
 */
export const redisclosures = pgTable(
  "redisclosures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The pulls whose data left (one, or every row of a bulk export); no foreign key: the log outlives them. */
    pullIds: uuid("pull_ids").array().notNull(),
    pullCount: integer("pull_count").notNull(),
    /** What kind of data: "driver data" (licence, driving record, drivers of a policy). */
    dataKinds: text("data_kinds").array().notNull(),
    /** How it left: a look-up answer, a consumer's data export, a hand-off to another system. */
    channel: text("channel").notNull(),
    /** Who received it, as the user named them ("internal use" by default). */
    recipient: text("recipient").notNull(),
    /** The DPPA permissible purpose (a code of lib/enrichment/purposes.ts) or the purpose in words. */
    purpose: text("purpose").notNull(),
    actorId: uuid("actor_id"),
    actorName: text("actor_name"),
  },
  (t) => [index("redisclosures_at_idx").on(t.at), index("redisclosures_pull_ids_idx").using("gin", t.pullIds)],
);
export type RedisclosureRow = typeof redisclosures.$inferSelect;

// The retention schedule and legal holds (lib/privacy): how long each kind of record is kept, and
// the pulls and accounts that must be kept whatever the schedule says.

/**
 * One row per kind of record (lib/privacy/retention-kinds.ts) an admin has set; a kind without a
 * row keeps its default. `months` null: keep (never disposed of).
 */
export const retentionSchedule = pgTable("retention_schedule", {
  kind: text("kind").primaryKey(),
  months: integer("months"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

/**
 * A legal hold on one pull or on one account (the key reviews are kept under: the account's
 * identifier, or the pull's id when it has none). Held while `lifted_at` is null; a lifted hold
 * stays as the record of it. No foreign key: the hold outlives what it speaks of, like the audit
 * trail.
 */
export const legalHolds = pgTable(
  "legal_holds",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    pullId: uuid("pull_id"),
    accountKey: text("account_key"),
    reason: text("reason").notNull(),
    placedAt: timestamp("placed_at", { withTimezone: true }).notNull().defaultNow(),
    placedBy: uuid("placed_by"),
    placedByName: text("placed_by_name"),
    liftedAt: timestamp("lifted_at", { withTimezone: true }),
    liftedBy: uuid("lifted_by"),
    liftedByName: text("lifted_by_name"),
    liftReason: text("lift_reason"),
  },
  (t) => [
    check("legal_holds_one_subject", sql`(${t.pullId} is null) <> (${t.accountKey} is null)`),
    // One standing hold per pull and per account: placing a second is refused, not doubled.
    uniqueIndex("legal_holds_pull_held_idx")
      .on(t.pullId)
      .where(sql`${t.liftedAt} is null and ${t.pullId} is not null`),
    uniqueIndex("legal_holds_account_held_idx")
      .on(t.accountKey)
      .where(sql`${t.liftedAt} is null and ${t.accountKey} is not null`),
    index("legal_holds_placed_at_idx").on(t.placedAt),
  ],
);

export type RetentionScheduleRow = typeof retentionSchedule.$inferSelect;
export type LegalHoldRow = typeof legalHolds.$inferSelect;
