import "server-only";
import { sql } from "drizzle-orm";
import { boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const ROLES = ["ADMIN", "MANAGER", "AGENT"] as const;
export type Role = (typeof ROLES)[number];
export const roleEnum = pgEnum("user_role", ROLES);

/**
 * An office of the agency (a franchise agency runs several). Managers and agents of an office
 * see its pulls; a user with no office is agency-wide. Names are unique whatever their case.
 */
export const offices = pgTable(
  "offices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("offices_name_unique").on(sql`lower(${t.name})`)],
);

export type Office = typeof offices.$inferSelect;

// The agency's own people. Emails are stored lower-cased so that login is case-insensitive.
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: roleEnum("role").notNull(),
    passwordHash: text("password_hash").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /** Null: agency-wide, as every user was before offices (lib/auth/permissions.ts). */
    officeId: uuid("office_id").references(() => offices.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_role_idx").on(t.role),
    index("users_office_id_idx").on(t.officeId),
  ],
);

export type User = typeof users.$inferSelect;

/**
 * One row per sign-in. The session cookie (a next-auth JWT) names its row, and every request
 * checks it: signing out, a password reset or the absolute lifetime ends a session on the
 * server, so a copied cookie stops working even though its signature is still valid.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The absolute end, however active the session stays (COVERDESK_SESSION_MAX_HOURS). */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** SIGNED_OUT or PASSWORD_CHANGED. */
    endedReason: text("ended_reason"),
    /** The client's address at sign-in. */
    address: text("address"),
  },
  (t) => [index("user_sessions_user_id_idx").on(t.userId)],
);

export type UserSessionRow = typeof userSessions.$inferSelect;
