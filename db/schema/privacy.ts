import "server-only";
import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { pulls } from "./pulls";

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

// Consumer privacy (lib/privacy): finding a person by a keyed hash of what they gave, the
// requests they make of the agency (a copy of their data, or its erasure), and what stays
// behind once they are erased: keyed hashes only, so nothing of theirs comes back.

/**
 * A stored pull's blind index (lib/security/blind-index.ts): one row per kind and keyed hash of
 * its emails, phones, names, drivers' dates of birth, VINs and account. Written with the pull
 * (lib/ingest/store-pull.ts), so the request desk finds a person by a date of birth even when
 * the payload keeps it sealed; gone with the pull.
 */
export const consumerIndex = pgTable(
  "consumer_index",
  {
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    /** email, phone, name, birth-date, vin, account (IndexKind). */
    kind: text("kind").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.pullId, t.kind, t.hash] }), index("consumer_index_hash_idx").on(t.kind, t.hash)],
);

/**
 * What was erased, as keyed hashes (kind `pull`, `account`, `email`): a later sync, a repeated
 * webhook or a refresh that names one of them is refused (counted here, never stored). The
 * hashes are HMACs under the index key: without it, the table answers no "was X a client?".
 */
export const erasedSubjects = pgTable(
  "erased_subjects",
  {
    kind: text("kind").notNull(),
    hash: text("hash").notNull(),
    erasedAt: timestamp("erased_at", { withTimezone: true }).notNull().defaultNow(),
    requestId: uuid("request_id"),
    /** Deliveries and pulls refused since, and the latest: the audit of the refusal, by count. */
    refusals: integer("refusals").notNull().default(0),
    lastRefusedAt: timestamp("last_refused_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.hash] })],
);

/**
 * A consumer's request of the agency: ACCESS (a copy of everything held) or ERASURE. The law's
 * clock runs from the day it was received (`dueOn`: 45 days later). The pulls it concerns are
 * named by id while it is open; an erasure keeps them only until the service has been told to
 * delete its own copy, then nothing that names the person is left here.
 */
export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** ACCESS or ERASURE. */
    kind: text("kind").notNull(),
    /** OPEN, then DONE (the copy handed over, or the erasure made). */
    status: text("status").notNull().default("OPEN"),
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    /** The agency's own reference (a ticket number): never the person's name or email. */
    reference: text("reference").notNull().default(""),
    pullIds: uuid("pull_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    openedBy: uuid("opened_by"),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    completedBy: uuid("completed_by"),
    /** ERASURE: what went, by kind of record. */
    erasedCounts: jsonb("erased_counts").$type<Record<string, number>>(),
    /** ERASURE: the pulls the service still holds, until someone has told it (then emptied). */
    servicePullIds: uuid("service_pull_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    serviceToldAt: timestamp("service_told_at", { withTimezone: true }),
    serviceToldBy: uuid("service_told_by"),
  },
  (t) => [index("privacy_requests_status_idx").on(t.status, t.dueOn)],
);

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;
export const PRIVACY_REQUEST_KINDS = ["ACCESS", "ERASURE"] as const;
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number];
