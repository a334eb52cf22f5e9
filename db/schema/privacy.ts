import "server-only";
import { bigserial, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
