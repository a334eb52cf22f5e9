import "server-only";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users";

// Public surfaces need limits and guards that hold across every app instance, so they live in
// the database rather than in one process's memory.

/** Fixed-window counters: one row per key (what is limited, and for whom) and window. */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.windowStart] }),
    index("rate_limit_windows_window_start_idx").on(t.windowStart),
  ],
);

/**
 * Failed sign-ins, per client address and per account-and-address: each failure past a few free
 * ones doubles the wait before the next try (lib/security/login-throttle.ts). The key holds no
 * typed email (it is hashed).
 */
export const loginThrottles = pgTable("login_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }),
  /** No attempt under this key is checked before then. */
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

/**
 * A reconnect page Coverdesk hosts for one monitored account. Its address carries the id and an
 * HMAC of it, so staff can copy the link again and nothing secret is stored. The service's
 * pull session (pull id and JWT) stays here, on the server; the consumer's browser never sees it.
 */
export const reconnectPages = pgTable(
  "reconnect_pages",
  {
    id: text("id").primaryKey(),
    monitoringId: text("monitoring_id").notNull(),
    createdBy: uuid("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    sessionPullId: uuid("session_pull_id"),
    sessionJwt: text("session_jwt"),
    sessionStartedAt: timestamp("session_started_at", { withTimezone: true }),
    /** The AUTH_STATUS sequence when the consumer last answered; the page waits for a newer one. */
    answeredAtSequence: integer("answered_at_sequence"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** A refusal of the service that the consumer cannot fix (ALREADY_RECONNECTED, …). */
    closedReason: text("closed_reason"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("reconnect_pages_monitoring_id_idx")
      .on(t.monitoringId)
      .where(sql`${t.completedAt} is null`),
  ],
);

export type ReconnectPageRow = typeof reconnectPages.$inferSelect;

/**
 * A user's second factor for signing in: an authenticator app's TOTP secret (lib/auth/second-factor.ts).
 * One per user. Pending until the user confirms it with a current code; only a confirmed factor
 * is asked for at sign-in. The secret is sealed with AES-256-GCM under a key id
 * (lib/security/secret-box.ts); the recovery codes are kept only as hashes, each removed when used.
 */
export const userFactors = pgTable("user_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** "TOTP" for now. */
  kind: text("kind").notNull().default("TOTP"),
  /** `<key id>:<iv>:<ciphertext>:<tag>`, never the secret as is. */
  secretSealed: text("secret_sealed").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Null while enrolment is pending. */
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  /** The last 30-second time step a code was accepted for: a code of that step or an earlier one is refused. */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  /** sha-256 of the user id and each unused recovery code. */
  recoveryCodeHashes: text("recovery_code_hashes")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});

export type UserFactorRow = typeof userFactors.$inferSelect;

/**
 * Keys of COVERDESK_ENCRYPTION_KEYS that a rotation (`npm run keys -- rotate`) retired once every
 * sealed value was re-wrapped under the new primary key: a value under a retired key is refused,
 * and the app does not start with a retired key first in the ring.
 */
export const encryptionKeyRetirements = pgTable("encryption_key_retirements", {
  keyId: text("key_id").primaryKey(),
  retiredAt: timestamp("retired_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sealed columns whose rows written in clear (by a version before sealing) have all been
 * sealed: the upgrade sweep (lib/security/sealed-columns.ts) visits a column once.
 */
export const sealedColumnSweeps = pgTable("sealed_column_sweeps", {
  columnKey: text("column_key").primaryKey(),
  sweptAt: timestamp("swept_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The agency's sign-in rules, one row (id 1; no row reads as the defaults). Whether every user
 * must have a second factor (lib/auth/second-factor-requirement.ts): production requires one
 * whatever this says, unless COVERDESK_MFA_REQUIRED=false.
 */
export const securitySettings = pgTable("security_settings", {
  id: integer("id").primaryKey().default(1),
  secondFactorRequired: boolean("second_factor_required").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

/**
 * A user's passkeys (WebAuthn credentials), a second factor beside the authenticator app
 * (lib/auth/passkeys.ts). The public key verifies the signature of each sign-in; the counter,
 * where the authenticator keeps one, must grow with each use, so a cloned key shows itself.
 */
export const userPasskeys = pgTable(
  "user_passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential's id as the browser names it (base64url). */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key (base64url). */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    /** How the browser reaches it (usb, nfc, ble, internal, hybrid), as it said at registration. */
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The user's own name for it ("Work laptop", "YubiKey"). */
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("user_passkeys_credential_id_unique").on(t.credentialId),
    index("user_passkeys_user_id_idx").on(t.userId),
  ],
);

export type UserPasskeyRow = typeof userPasskeys.$inferSelect;

/**
 * The challenges the server handed out for a passkey ceremony (registering one, or signing in
 * with one), each for one user and one use, for a few minutes: the answer must sign one of these.
 */
export const passkeyChallenges = pgTable(
  "passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** REGISTRATION or SIGN_IN. */
    purpose: text("purpose").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("passkey_challenges_user_id_idx").on(t.userId)],
);
