import "server-only";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// The public API (/api/v1): its keys, and the answers kept for Idempotency-Key retries.

/**
 * An API key. The caller holds `cdk_<id>_<secret>`; only the SHA-256 of the secret is kept (the
 * secret is 32 random bytes, so a fast hash is as good as a slow one: there is nothing to guess).
 * A key acts as an admin narrowed to its scopes, under its own name ("API key: Zapier").
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** `pulls:read`, `pulls:write`, … (lib/api/scopes.ts). */
    scopes: text("scopes").array().notNull(),
    /** Hex SHA-256 of the secret part of the key. */
    secretHash: text("secret_hash").notNull(),
    /** The first characters of the key as shown once, so an admin can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** Calls a minute before the key is answered 429. */
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(120),
    /** The admin who made it on the API keys page; null when made with `npm run api-key`. */
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per key, not on every call. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_created_by_idx").on(t.createdBy)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * The first answer to a POST or PATCH sent with an Idempotency-Key, kept 24 hours and replayed to
 * a retry. `status` is null while the first request is still running. Expired rows are removed
 * by the api-idempotency-cleanup job.
 */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of the method, path and body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.idempotencyKey] }),
    index("api_idempotency_created_at_idx").on(t.createdAt),
  ],
);
