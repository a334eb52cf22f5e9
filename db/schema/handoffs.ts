import "server-only";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { pulls } from "./pulls";
import { users } from "./users";

// Hand-offs to the agency's management system (AgencyZoom): what a lead needs that a pull lacks
// (the admin's assumptions), who each Coverdesk user is there, and the record of each pull sent,
// whose external id makes a second send an update rather than a duplicate lead.

/**
 * One row (id 1): the values AgencyZoom requires of a lead that a pull cannot give (its pipeline,
 * stage and lead source, the country) and the AgencyZoom user a lead goes to when the pull's
 * owner is not mapped. Null: not chosen yet, and a send is refused naming it.
 */
export const agencyzoomSettings = pgTable(
  "agencyzoom_settings",
  {
    id: integer("id").primaryKey().default(1),
    pipelineId: integer("pipeline_id"),
    stageId: integer("stage_id"),
    leadSourceId: integer("lead_source_id"),
    country: text("country").notNull().default("US"),
    fallbackAssigneeId: integer("fallback_assignee_id"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("agencyzoom_settings_one_row", sql`${t.id} = 1`),
    index("agencyzoom_settings_updated_by_idx").on(t.updatedBy),
  ],
);

/** A Coverdesk user's AgencyZoom user: the lead of a pull they own is assigned there. */
export const agencyzoomUserMap = pgTable("agencyzoom_user_map", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  agencyzoomUserId: integer("agencyzoom_user_id").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A pull handed to a target system: the record's id there (AgencyZoom's lead id), so a second
 * send updates it; the opportunity id when one was made; who sent it last, when, how many times.
 */
export const handoffs = pgTable(
  "handoffs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    pullId: uuid("pull_id")
      .notNull()
      .references(() => pulls.pullId, { onDelete: "cascade" }),
    /** "agencyzoom". */
    target: text("target").notNull(),
    externalId: text("external_id").notNull(),
    opportunityId: text("opportunity_id"),
    /** The target's own page of the record. */
    url: text("url"),
    sentBy: uuid("sent_by").references(() => users.id, { onDelete: "set null" }),
    sentByName: text("sent_by_name").notNull(),
    firstSentAt: timestamp("first_sent_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    sendCount: integer("send_count").notNull().default(1),
  },
  (t) => [uniqueIndex("handoffs_pull_target_idx").on(t.pullId, t.target), index("handoffs_sent_by_idx").on(t.sentBy)],
);

export type HandoffRow = typeof handoffs.$inferSelect;
export type AgencyzoomSettingsRow = typeof agencyzoomSettings.$inferSelect;
