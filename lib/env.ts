import "server-only";
import { hkdfSync } from "node:crypto";
import { z } from "zod";

// Every environment variable the app reads, parsed once. Nothing else reads process.env.
// In development each variable has a default that points at the local sandbox, so a fresh
// clone runs with no setup; in production a missing secret stops the app and names it.

const SANDBOX_DEFAULTS = {
  SERVICE_BASE_URL: "http://localhost:4010/api/v1.0.0",
  SERVICE_TEAM_ID: "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01",
  SERVICE_CLIENT_ID: "coverdesk-dev-client",
  SERVICE_CLIENT_SECRET: "coverdesk-dev-secret",
  NEXTAUTH_SECRET: "coverdesk-development-secret-not-for-production",
  NEXTAUTH_URL: "http://localhost:3000",
  /** The AgencyZoom stand-in (sandbox/agencyzoom) and its demo user. */
  AGENCYZOOM_BASE_URL: "http://localhost:4020",
  AGENCYZOOM_USERNAME: "demo@agency.example",
  AGENCYZOOM_PASSWORD: "agencyzoom-stand-in",
} as const;

/**
 * Variables that must be set explicitly in production. SERVICE_WEBHOOK_SECRET is not among them:
 * production refuses every webhook not signed with a known secret, and the secrets of the team's
 * registrations come from the service (lib/service/webhook-signing-secrets.ts).
 */
export const PRODUCTION_REQUIRED = [
  "DATABASE_URL", // never a silent embedded database in production
  // The tables' owner, to migrate with: DATABASE_URL is then a role that may only read and append
  // to the audit trail and the redisclosure log, so no bug or injected statement can rewrite who
  // saw what (the start also refuses a DATABASE_URL role that could: lib/startup.ts).
  "DATABASE_MIGRATION_URL",
  "SERVICE_BASE_URL",
  "SERVICE_TEAM_ID",
  "SERVICE_CLIENT_ID",
  "SERVICE_CLIENT_SECRET",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "COVERDESK_SMTP_URL", // without it the alert digests would silently never leave
  "COVERDESK_MAIL_FROM",
  "COVERDESK_ENCRYPTION_KEYS", // drivers' licence numbers and dates of birth are never stored in clear
  "COVERDESK_INDEX_KEY", // the keyed hashes that find people without storing what they match
] as const;

/** The session-signing key must resist guessing: 32 bytes, as `openssl rand -base64 32` gives. */
export const MIN_SECRET_BYTES = 32;

/** What a real service needs whatever the mode: without the team id every team route
 * answers 404, and every team call needs the credentials. */
export const REAL_SERVICE_REQUIRED = ["SERVICE_TEAM_ID", "SERVICE_CLIENT_ID", "SERVICE_CLIENT_SECRET"] as const;

/**
 * How old a webhook signature may be. The service retries a failed delivery 10 times, 60 + n⁴ s
 * apart (about 7.2 hours in all), and does not say whether a retry is signed anew; 8 hours lets
 * every retry of a signature made at the first attempt through. A replay inside that window
 * changes nothing: the inbox keeps one event per body, and the worker re-fetches the pull.
 */
export const DEFAULT_WEBHOOK_MAX_AGE_SECONDS = 8 * 60 * 60;

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().min(1).optional());
const flag = z.preprocess(
  emptyToUndefined,
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
);

/** A URL whose host can be read: a replica's address that does not is a typo, found at start. */
function parsesAsUrl(value: string): boolean {
  try {
    return new URL(value).hostname.length > 0;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** The tables' owner, for migrations; DATABASE_URL is then the app's own, lesser role. */
  DATABASE_MIGRATION_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /**
   * Streaming replicas of DATABASE_URL's cluster, comma-separated postgres:// URLs (the same
   * database name on each): the reports, the CSV exports, the X-date and cross-sell lists and the
   * refresh forecast read from them (lib/replicas/). Unset: everything reads the primary.
   */
  DATABASE_REPLICA_URLS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((url) => url.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(
            z
              .string()
              .regex(/^postgres(ql)?:\/\//, "must be comma-separated postgres:// or postgresql:// URLs")
              .refine(parsesAsUrl, "must be comma-separated postgres:// URLs that parse (a host, no stray spaces)"),
          )
          .min(1)
          .max(16)
          .refine((urls) => new Set(urls).size === urls.length, "must not name the same replica twice"),
      )
      .optional(),
  ),
  /** Folder of the embedded PGlite database, used when DATABASE_URL is unset. */
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().default(".data/pglite")),
  SERVICE_BASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/ })
      .refine((u) => /\/v1\.0\.0\/?$/.test(u), "must end in /v1.0.0")
      .transform((u) => u.replace(/\/$/, ""))
      .optional(),
  ),
  SERVICE_TEAM_ID: optionalString,
  SERVICE_CLIENT_ID: optionalString,
  SERVICE_CLIENT_SECRET: optionalString,
  /** A signing secret accepted besides those the service lists; once set, unsigned webhooks are refused in any mode. */
  SERVICE_WEBHOOK_SECRET: optionalString,
  SERVICE_SIGNATURE_HEADER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name")
      .default("canopy-signature")
      .transform((h) => h.toLowerCase()),
  ),
  SERVICE_WEBHOOK_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(DEFAULT_WEBHOOK_MAX_AGE_SECONDS),
  SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Narrows the hosts relayed files may be fetched from, on every redirect hop; unset, any host
   * that passes the download guard's checks (lib/security/download-guard.ts).
   */
  SERVICE_DOWNLOAD_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(
            z
              .string()
              .regex(
                /^(\*\.)?[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/,
                'must be comma-separated host names, "*.domain" or [IPv6]',
              ),
          )
          .min(1),
      )
      .optional(),
  ),
  NEXTAUTH_SECRET: optionalString,
  NEXTAUTH_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /**
   * AgencyZoom's API (https://api.agencyzoom.com), where pulls are sent as leads. Unset in
   * production: the hand-off is off. Set: AGENCYZOOM_USERNAME and AGENCYZOOM_PASSWORD must be.
   */
  AGENCYZOOM_BASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/ })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  AGENCYZOOM_USERNAME: optionalString,
  AGENCYZOOM_PASSWORD: optionalString,
  AGENCYZOOM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /**
   * Serves a production build in test mode (the sandbox, the demo users, unsigned webhooks): the
   * end-to-end tests and the bench set it with NODE_ENV=test. Refused in production; without it a
   * production build refuses any NODE_ENV but production, and server.mjs runs it in production.
   */
  COVERDESK_TEST_MODE: flag,
  /** Seeds the demo users and accepts their shared password. Always on in development. */
  COVERDESK_DEMO_MODE: flag,
  /** Builds the demo agency's nine months of history into an empty database (lib/demo); development only. */
  COVERDESK_DEMO_HISTORY: z.preprocess(emptyToUndefined, z.enum(["true", "false", "1", "0"]).optional()),
  /** Linked accounts in the demo agency's history. */
  COVERDESK_DEMO_ACCOUNTS: z.coerce.number().int().min(10).max(5_000).default(320),
  /** Keys the reconnect-page links (lib/monitoring/reconnect-page-token.ts); derived from NEXTAUTH_SECRET when unset. */
  COVERDESK_LINK_SECRET: optionalString,
  /** Minutes between reconciliation syncs with the service's pull list; 0 turns them off. */
  COVERDESK_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(15),
  /**
   * Reverse proxies in front of the app that append to X-Forwarded-For: the client's address is
   * the entry this many places from the right (0: the peer that connected, as server.mjs adds it).
   */
  TRUSTED_PROXY_HOPS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10).optional()),
  /** Hours a session lasts at most from sign-in, however active (besides the 8-hour idle limit). */
  COVERDESK_SESSION_MAX_HOURS: z.coerce
    .number()
    .min(0.25)
    .max(24 * 30)
    .default(12),
  /**
   * Where the alert digests are sent: smtps://user:pass@host:465, or smtp://user:pass@host:587?requireTLS=true
   * (STARTTLS required; production refuses smtp:// without it, where the password would go in the clear).
   */
  COVERDESK_SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  /** The digests' sender, "Coverdesk <alerts@agency.example>" or a bare address. */
  COVERDESK_MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+>?$/, "must be an email address, optionally as Name <address>")
      .optional(),
  ),
  /** Without SMTP (development, tests): the folder the digests are written to as .eml files. */
  COVERDESK_MAIL_DIR: z.preprocess(emptyToUndefined, z.string().default(".data/mail")),
  /**
   * The key ring that seals personal data at rest (lib/security/key-ring.ts): comma-separated
   * `id:base64key` pairs of 32-byte keys, the first the one new values are sealed with, e.g.
   * `k2:<openssl rand -base64 32>,k1:<the previous key>`. Derived from NEXTAUTH_SECRET in development.
   */
  COVERDESK_ENCRYPTION_KEYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((pair) => pair.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(
            z
              .string()
              .regex(/^[a-z0-9_-]{1,16}:[A-Za-z0-9+/_-]{43}=?$/i, "must be id:base64key pairs of 32-byte keys")
              .transform((pair) => {
                const [id, key] = pair.split(":") as [string, string];
                return { id, key: Buffer.from(key, key.includes("-") || key.includes("_") ? "base64url" : "base64") };
              }),
          )
          .min(1)
          .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, "key ids must be distinct"),
      )
      .optional(),
  ),
  /**
   * Keys the blind indexes (lib/security/blind-index.ts): 32 bytes or more, base64. It never
   * rotates with the ring: every stored index would have to be computed again from clear values.
   * Derived from NEXTAUTH_SECRET in development.
   */
  COVERDESK_INDEX_KEY: optionalString,
  /**
   * Production requires a second factor for every user; `false` turns that off on purpose (it is
   * named in the log at every start). Elsewhere the admin's setting alone decides.
   */
  COVERDESK_MFA_REQUIRED: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).optional()),
  /** Runs the ingestion worker inside this process (default on). */
  COVERDESK_WORKER: z.preprocess(
    emptyToUndefined,
    z
      .enum(["true", "false", "1", "0"])
      .default("true")
      .transform((v) => v === "true" || v === "1"),
  ),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  databaseUrl: string | null;
  /** Null: DATABASE_URL's role owns the tables and migrates them itself. */
  databaseMigrationUrl: string | null;
  /** Streaming replicas of DATABASE_URL's cluster, for the heavy reads; empty: none. */
  databaseReplicaUrls: string[];
  pgliteDir: string;
  service: {
    baseUrl: string;
    teamId: string;
    clientId: string;
    clientSecret: string;
    webhookSecret: string | null;
    signatureHeader: string;
    /** Seconds a webhook signature stays acceptable. */
    webhookMaxAgeSeconds: number;
    timeoutMs: number;
    /** Hosts a relayed file may come from; null: any host the download guard allows. */
    downloadHosts: string[] | null;
  };
  auth: { secret: string; url: string; /** Absolute session lifetime from sign-in. */ sessionMaxSeconds: number };
  demoMode: boolean;
  /** Null when the demo agency's history is not to be built (always in production). */
  demoHistory: { accounts: number } | null;
  /** The secret the reconnect-page key is derived from instead of the session secret; null: derived from that. */
  linkSecret: string | null;
  runWorker: boolean;
  /** 0 when scheduled syncs are off. */
  syncIntervalMs: number;
  /** X-Forwarded-For entries added by proxies we trust, counted from the right (see server.mjs). */
  trustedProxyHops: number;
  /** Settings accepted but worth a line in the log at start (env() writes them once). */
  warnings: string[];
  /** SMTP when configured (always in production); otherwise a folder of .eml files nobody is sent. */
  mail: { smtpUrl: string | null; from: string; outboxDir: string };
  /** The key ring (first: the key new values are sealed with) and the blind-index key. */
  dataProtection: { keys: { id: string; key: Buffer }[]; indexKey: Buffer };
  /** True: production with COVERDESK_MFA_REQUIRED=false, the second factor not forced on every user. */
  mfaOptOut: boolean;
  /** AgencyZoom's API and the user Coverdesk signs in as; null: the hand-off to AgencyZoom is off. */
  agencyzoom: AgencyzoomConfig | null;
};

export type AgencyzoomConfig = { baseUrl: string; username: string; password: string; timeoutMs: number };

/** What a configured AgencyZoom needs besides its address. */
export const AGENCYZOOM_REQUIRED = ["AGENCYZOOM_USERNAME", "AGENCYZOOM_PASSWORD"] as const;

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvError";
  }
}

/**
 * Whether this is a `next build` (the bundler inlines NODE_ENV at build time), whatever mode the
 * server later runs in: the end-to-end tests run the production build in `test` mode, with the
 * sandbox and the demo users that production refuses, but only with COVERDESK_TEST_MODE set.
 */
export const productionBuild = process.env.NODE_ENV === "production";

/** Parses a raw environment; pure so that tests can feed it any set of variables (and say which build reads it). */
export function parseEnv(
  raw: Record<string, string | undefined>,
  build: { productionBuild: boolean } = { productionBuild },
): Env {
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";

  // A production build outside production only for a test run that says so: NODE_ENV=test alone
  // (a typo, a copied .env) would otherwise turn on the demo users and unsigned webhooks.
  if (build.productionBuild && !production && !e.COVERDESK_TEST_MODE) {
    throw new EnvError(
      `NODE_ENV: "${e.NODE_ENV}" on a production build needs COVERDESK_TEST_MODE=true (end-to-end tests and the bench only); run production with NODE_ENV=production`,
    );
  }

  // A replica copies a PostgreSQL cluster: beside the embedded database there is nothing to copy,
  // and reading from some other database's replica would show another agency's book.
  if (e.DATABASE_REPLICA_URLS && !e.DATABASE_URL) {
    throw new EnvError(
      "DATABASE_REPLICA_URLS: replicas need DATABASE_URL (PostgreSQL); the embedded database (PGlite) has none. Set DATABASE_URL to the primary, or unset DATABASE_REPLICA_URLS.",
    );
  }

  if (production) {
    const missing = PRODUCTION_REQUIRED.filter((name) => e[name] === undefined);
    if (missing.length > 0) {
      throw new EnvError(
        `Missing required environment variable${missing.length > 1 ? "s" : ""} in production: ${missing.join(", ")}`,
      );
    }
    const unsafe = productionHazards(e);
    if (unsafe.length > 0)
      throw new EnvError(`Unsafe configuration for production:\n${unsafe.map((line) => `  ${line}`).join("\n")}`);
  }
  // A service on another host is a real one in any mode: the sandbox's defaults would half-work
  // against it (every team route 404), so its team and credentials must be given.
  if (e.SERVICE_BASE_URL && !isLocalSandbox(e.SERVICE_BASE_URL)) {
    const missing = REAL_SERVICE_REQUIRED.filter((name) => e[name] === undefined);
    if (missing.length > 0) {
      throw new EnvError(
        `SERVICE_BASE_URL points at ${new URL(e.SERVICE_BASE_URL).host}, not the local sandbox; set ${missing.join(", ")} (without a team id every team route of the service answers 404).`,
      );
    }
  }
  // An AgencyZoom named without its user would fail every send with a 401: refused at start.
  if (e.AGENCYZOOM_BASE_URL) {
    const missing = AGENCYZOOM_REQUIRED.filter((name) => e[name] === undefined);
    if (missing.length > 0)
      throw new EnvError(
        `AGENCYZOOM_BASE_URL is set; set ${missing.join(" and ")} too (the user Coverdesk signs in to AgencyZoom as), or unset AGENCYZOOM_BASE_URL to turn the hand-off off.`,
      );
  }
  const authSecret = e.NEXTAUTH_SECRET ?? SANDBOX_DEFAULTS.NEXTAUTH_SECRET;
  // In development the team id defaults to the sandbox's team so team-scoped routes are exercised.
  const teamId = e.SERVICE_TEAM_ID ?? SANDBOX_DEFAULTS.SERVICE_TEAM_ID;

  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL ?? null,
    databaseMigrationUrl: e.DATABASE_URL ? (e.DATABASE_MIGRATION_URL ?? null) : null,
    databaseReplicaUrls: e.DATABASE_REPLICA_URLS ?? [],
    pgliteDir: e.PGLITE_DIR,
    service: {
      baseUrl: e.SERVICE_BASE_URL ?? SANDBOX_DEFAULTS.SERVICE_BASE_URL,
      teamId,
      clientId: e.SERVICE_CLIENT_ID ?? SANDBOX_DEFAULTS.SERVICE_CLIENT_ID,
      clientSecret: e.SERVICE_CLIENT_SECRET ?? SANDBOX_DEFAULTS.SERVICE_CLIENT_SECRET,
      webhookSecret: e.SERVICE_WEBHOOK_SECRET ?? null,
      signatureHeader: e.SERVICE_SIGNATURE_HEADER,
      webhookMaxAgeSeconds: e.SERVICE_WEBHOOK_MAX_AGE_SECONDS,
      timeoutMs: e.SERVICE_TIMEOUT_MS,
      downloadHosts: e.SERVICE_DOWNLOAD_HOSTS ?? null,
    },
    auth: {
      secret: authSecret,
      url: e.NEXTAUTH_URL ?? SANDBOX_DEFAULTS.NEXTAUTH_URL,
      sessionMaxSeconds: Math.round(e.COVERDESK_SESSION_MAX_HOURS * 3600),
    },
    demoMode: !production, // production refuses COVERDESK_DEMO_MODE above
    // On by default in development; the end-to-end tests (test mode) ask for it when they want it.
    demoHistory:
      !production && ["true", "1"].includes(e.COVERDESK_DEMO_HISTORY ?? (e.NODE_ENV === "development" ? "true" : ""))
        ? { accounts: e.COVERDESK_DEMO_ACCOUNTS }
        : null,
    linkSecret: e.COVERDESK_LINK_SECRET ?? null,
    syncIntervalMs: e.COVERDESK_SYNC_INTERVAL_MINUTES * 60_000,
    runWorker: e.COVERDESK_WORKER,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS ?? 0,
    warnings: production ? productionWarnings(e) : [],
    mail: {
      smtpUrl: e.COVERDESK_SMTP_URL ?? null,
      from: e.COVERDESK_MAIL_FROM ?? "Coverdesk <alerts@coverdesk.localhost>",
      outboxDir: e.COVERDESK_MAIL_DIR,
    },
    dataProtection: {
      keys: e.COVERDESK_ENCRYPTION_KEYS ?? [{ id: "dev1", key: derivedKey(authSecret, "coverdesk:data-key:dev1") }],
      indexKey: e.COVERDESK_INDEX_KEY
        ? Buffer.from(e.COVERDESK_INDEX_KEY, "base64")
        : derivedKey(authSecret, "coverdesk:blind-index:dev"),
    },
    mfaOptOut: production && e.COVERDESK_MFA_REQUIRED === "false",
    agencyzoom: agencyzoomConfig(e, production),
  };
}

/** AgencyZoom as configured; outside production the stand-in and its demo user when unset. */
function agencyzoomConfig(e: z.output<typeof envSchema>, production: boolean): AgencyzoomConfig | null {
  if (e.AGENCYZOOM_BASE_URL)
    return {
      baseUrl: e.AGENCYZOOM_BASE_URL,
      username: e.AGENCYZOOM_USERNAME ?? "",
      password: e.AGENCYZOOM_PASSWORD ?? "",
      timeoutMs: e.AGENCYZOOM_TIMEOUT_MS,
    };
  if (production) return null;
  return {
    baseUrl: SANDBOX_DEFAULTS.AGENCYZOOM_BASE_URL,
    username: SANDBOX_DEFAULTS.AGENCYZOOM_USERNAME,
    password: SANDBOX_DEFAULTS.AGENCYZOOM_PASSWORD,
    timeoutMs: e.AGENCYZOOM_TIMEOUT_MS,
  };
}

/** Development's keys: stable across restarts, so the two set-up commands need nothing. */
function derivedKey(secret: string, label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", label, 32));
}

/** The address is this machine's own: plain http to it never crosses a network. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** smtps:// (TLS from the start), or smtp:// that requires STARTTLS before the password is sent. */
function smtpUsesTls(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === "smtps:" || parsed.searchParams.get("requireTLS") === "true";
}

/** Settings that would make a production instance unsafe, each naming its variable. */
function productionHazards(e: z.output<typeof envSchema>): string[] {
  const hazards: string[] = [];
  if (e.COVERDESK_DEMO_MODE)
    hazards.push("COVERDESK_DEMO_MODE: must be off in production (it seeds demo users with a published password)");
  if (e.COVERDESK_DEMO_HISTORY === "true" || e.COVERDESK_DEMO_HISTORY === "1")
    hazards.push("COVERDESK_DEMO_HISTORY: must be off in production (it writes a made-up agency into the database)");
  if (Buffer.byteLength(e.NEXTAUTH_SECRET ?? "") < MIN_SECRET_BYTES)
    hazards.push(`NEXTAUTH_SECRET: must be at least ${MIN_SECRET_BYTES} bytes (openssl rand -base64 32)`);
  if (e.SERVICE_BASE_URL && !e.SERVICE_BASE_URL.startsWith("https://"))
    hazards.push("SERVICE_BASE_URL: must be https:// in production (the client secret travels with every call)");
  if (e.NEXTAUTH_URL && !e.NEXTAUTH_URL.startsWith("https://") && !isLoopback(e.NEXTAUTH_URL))
    hazards.push(
      "NEXTAUTH_URL: must be https:// in production (passwords and the session cookie would cross the network in the clear); only localhost may be http",
    );
  if (e.COVERDESK_SMTP_URL && !smtpUsesTls(e.COVERDESK_SMTP_URL))
    hazards.push(
      "COVERDESK_SMTP_URL: must use TLS in production: smtps://…:465, or smtp://…:587?requireTLS=true (STARTTLS required)",
    );
  if (e.COVERDESK_INDEX_KEY && Buffer.from(e.COVERDESK_INDEX_KEY, "base64").length < MIN_SECRET_BYTES)
    hazards.push(`COVERDESK_INDEX_KEY: must be at least ${MIN_SECRET_BYTES} bytes, base64 (openssl rand -base64 32)`);
  if (e.AGENCYZOOM_BASE_URL && !e.AGENCYZOOM_BASE_URL.startsWith("https://"))
    hazards.push(
      "AGENCYZOOM_BASE_URL: must be https:// in production (the AgencyZoom password and leads travel with it)",
    );
  if (e.COVERDESK_TEST_MODE)
    hazards.push("COVERDESK_TEST_MODE: must be unset in production (it serves the build with the demo users)");
  if (e.TRUSTED_PROXY_HOPS === undefined && servedOverHttps(e))
    hazards.push(
      "TRUSTED_PROXY_HOPS: must be set in production when NEXTAUTH_URL is https: behind a TLS proxy every client would share the proxy's address, and a few wrong passwords would slow sign-in for the whole agency. Set it to the number of reverse proxies that append to X-Forwarded-For (1 behind one nginx or load balancer), or to 0 when clients connect to Coverdesk itself",
    );
  return hazards;
}

/**
 * Settings production accepts but an operator should see: TRUSTED_PROXY_HOPS=0 with an https
 * public URL is right only when Coverdesk terminates TLS itself, so it starts, saying so.
 */
function productionWarnings(e: z.output<typeof envSchema>): string[] {
  const warnings: string[] = [];
  if (e.TRUSTED_PROXY_HOPS === 0 && servedOverHttps(e))
    warnings.push(
      "TRUSTED_PROXY_HOPS=0 with an https NEXTAUTH_URL: each client is counted by the address that connected to Coverdesk. If a reverse proxy terminates TLS in front of it, every client shares the proxy's address and sign-in limits apply to the whole agency at once; set TRUSTED_PROXY_HOPS to the number of proxies.",
    );
  if (e.COVERDESK_MFA_REQUIRED === "false")
    warnings.push(
      "COVERDESK_MFA_REQUIRED=false: users may sign in with a password alone, which 23 NYCRR 500.12 and the FTC Safeguards Rule do not allow for anyone who reaches consumers' data.",
    );
  return warnings;
}

const servedOverHttps = (e: z.output<typeof envSchema>): boolean =>
  e.NEXTAUTH_URL !== undefined && new URL(e.NEXTAUTH_URL).protocol === "https:";

/** The sandbox runs on this machine; any other host is taken for the real service. */
const isLocalSandbox = isLoopback;

let cached: Env | undefined;

/** The process environment, parsed on first use. Throws EnvError naming every bad variable. */
export function env(): Env {
  if (!cached) {
    cached = parseEnv(process.env);
    for (const warning of cached.warnings) console.warn(`[config] ${warning}`);
  }
  return cached;
}

/**
 * next-auth reads its base URL from process.env itself. Production must name it (parseEnv
 * enforces that); in development the request's own host is trusted so that localhost and
 * 127.0.0.1 both work.
 */
export function shareAuthUrlWithNextAuth(config: Env): void {
  if (config.nodeEnv !== "development") process.env.NEXTAUTH_URL ??= config.auth.url;
  else process.env.AUTH_TRUST_HOST ??= "true";
}
