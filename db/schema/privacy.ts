import "server-only";
import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { pulls } from "./pulls";

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
