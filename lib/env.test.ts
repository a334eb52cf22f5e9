import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";
import { PRODUCTION_ENV } from "@/test/production-env";

const production = PRODUCTION_ENV;

describe("environment", () => {
  it("runs with no variables at all in development, against the local sandbox and PGlite", () => {
    const env = parseEnv({});
    expect(env.databaseUrl).toBeNull();
    expect(env.pgliteDir).toBe(".data/pglite");
    expect(env.service.baseUrl).toBe("http://localhost:4010/api/v1.0.0");
    expect(env.service.teamId).not.toBeNull();
    expect(env.service.signatureHeader).toBe("canopy-signature");
    expect(env.service.webhookSecret).toBeNull();
    expect(env.demoMode).toBe(true);
  });

  it("stops production when a secret is missing, naming every missing variable", () => {
    const { NEXTAUTH_SECRET: _a, SERVICE_CLIENT_SECRET: _b, ...incomplete } = production;
    expect(() => parseEnv(incomplete)).toThrow(EnvError);
    expect(() => parseEnv(incomplete)).toThrow(/SERVICE_CLIENT_SECRET, NEXTAUTH_SECRET/);
  });

  it("accepts a complete production configuration with demo mode off", () => {
    const env = parseEnv(production);
    expect(env.demoMode).toBe(false);
    expect(env.service.teamId).toBe("team-1");
    expect(env.auth.url).toBe("https://coverdesk.example.com");
    expect(parseEnv({ ...production, COVERDESK_DEMO_MODE: "false" }).demoMode).toBe(false);
  });

  it("refuses each unsafe production setting, naming its variable", () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{ COVERDESK_DEMO_MODE: "true" }, /COVERDESK_DEMO_MODE: must be off in production/],
      [{ NEXTAUTH_SECRET: "a-long-random-secret" }, /NEXTAUTH_SECRET: must be at least 32 bytes/],
      [{ SERVICE_BASE_URL: "http://service.example.com/api/v1.0.0" }, /SERVICE_BASE_URL: must be https/],
      [{ DATABASE_URL: "" }, /in production: DATABASE_URL/],
      // Without the owner's address the app would run as the owner, able to rewrite the audit trail.
      [{ DATABASE_MIGRATION_URL: "" }, /in production: DATABASE_MIGRATION_URL/],
    ];
    for (const [change, message] of refusals) {
      expect(() => parseEnv({ ...production, ...change }), JSON.stringify(change)).toThrow(message);
    }
    // Every hazard at once is named at once.
    expect(() => parseEnv({ ...production, COVERDESK_DEMO_MODE: "1", NEXTAUTH_SECRET: "short" })).toThrow(
      /COVERDESK_DEMO_MODE[\s\S]*NEXTAUTH_SECRET/,
    );
  });

  it("serves a production build in test mode only when the test run says so, and never in production", () => {
    const build = { productionBuild: true };
    // `NODE_ENV=test` alone on a production build would turn on the demo users and unsigned webhooks.
    expect(() => parseEnv({ NODE_ENV: "test" }, build)).toThrow(
      /NODE_ENV: "test" on a production build needs COVERDESK_TEST_MODE/,
    );
    expect(() => parseEnv({ NODE_ENV: "development" }, build)).toThrow(/COVERDESK_TEST_MODE/);
    // The end-to-end tests and the bench opt in explicitly.
    const optedIn = parseEnv({ NODE_ENV: "test", COVERDESK_TEST_MODE: "true" }, build);
    expect(optedIn).toMatchObject({ nodeEnv: "test", demoMode: true, service: { webhookSecret: null } });
    // A production environment refuses the opt-in, naming it.
    expect(() => parseEnv({ ...production, COVERDESK_TEST_MODE: "true" }, build)).toThrow(
      /COVERDESK_TEST_MODE: must be unset in production/,
    );
    // Vitest and `next dev` need no opt-in.
    expect(parseEnv({ NODE_ENV: "test" }, { productionBuild: false }).demoMode).toBe(true);
  });

  it("refuses a plain-http NEXTAUTH_URL in production unless it is this machine", () => {
    expect(() => parseEnv({ ...production, NEXTAUTH_URL: "http://coverdesk.example.com" })).toThrow(
      /NEXTAUTH_URL: must be https:\/\/ in production/,
    );
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3100", "http://[::1]:3000"]) {
      expect(parseEnv({ ...production, NEXTAUTH_URL: url }).auth.url, url).toBe(url);
    }
  });

  it("refuses SMTP without TLS in production: smtps://, or smtp:// that requires STARTTLS", () => {
    expect(() =>
      parseEnv({ ...production, COVERDESK_SMTP_URL: "smtp://alerts:mail-password@smtp.example.com:587" }),
    ).toThrow(/COVERDESK_SMTP_URL: must use TLS in production/);
    expect(() =>
      parseEnv({ ...production, COVERDESK_SMTP_URL: "smtp://alerts:pw@smtp.example.com:587?requireTLS=false" }),
    ).toThrow(/COVERDESK_SMTP_URL/);
    for (const url of [
      "smtps://alerts:pw@smtp.example.com:465",
      "smtp://alerts:pw@smtp.example.com:587?requireTLS=true",
    ]) {
      expect(parseEnv({ ...production, COVERDESK_SMTP_URL: url }).mail.smtpUrl, url).toBe(url);
    }
    // Development may send to a local catcher in the clear.
    expect(parseEnv({ COVERDESK_SMTP_URL: "smtp://localhost:1025" }).mail.smtpUrl).toBe("smtp://localhost:1025");
  });

  it("refuses an https production behind an unnamed proxy count, and warns when 0 is chosen on purpose", () => {
    const { TRUSTED_PROXY_HOPS: _hops, ...unset } = production;
    // Unset (or empty) with an https public URL: the variable is named and the start refused.
    expect(() => parseEnv(unset)).toThrow(/Unsafe configuration for production:[\s\S]*TRUSTED_PROXY_HOPS: must be set/);
    expect(() => parseEnv({ ...unset, TRUSTED_PROXY_HOPS: "" })).toThrow(/TRUSTED_PROXY_HOPS: must be set/);
    expect(() => parseEnv({ ...unset, NEXTAUTH_URL: "HTTPS://coverdesk.example.com" })).toThrow(/TRUSTED_PROXY_HOPS/);
    // Set explicitly: 0 starts (Coverdesk terminates TLS itself), with a warning for the log.
    const direct = parseEnv({ ...unset, TRUSTED_PROXY_HOPS: "0" });
    expect(direct.trustedProxyHops).toBe(0);
    expect(direct.warnings).toEqual([expect.stringMatching(/^TRUSTED_PROXY_HOPS=0 with an https NEXTAUTH_URL/)]);
    expect(parseEnv({ ...unset, TRUSTED_PROXY_HOPS: "1" })).toMatchObject({ trustedProxyHops: 1, warnings: [] });
    // A public URL on this machine (no TLS proxy implied), and development and test, keep the default of 0.
    expect(parseEnv({ ...unset, NEXTAUTH_URL: "http://localhost:3000" })).toMatchObject({
      trustedProxyHops: 0,
      warnings: [],
    });
    for (const NODE_ENV of ["development", "test"])
      expect(parseEnv({ NODE_ENV, NEXTAUTH_URL: "https://coverdesk.example.com" })).toMatchObject({
        trustedProxyHops: 0,
        warnings: [],
      });
    expect(() => parseEnv({ ...production, TRUSTED_PROXY_HOPS: "-1" })).toThrow(/TRUSTED_PROXY_HOPS/);
  });

  it("starts production without SERVICE_WEBHOOK_SECRET: the registrations' secrets come from the service", () => {
    expect(production.SERVICE_WEBHOOK_SECRET).toBeUndefined();
    expect(parseEnv(production)).toMatchObject({ nodeEnv: "production", service: { webhookSecret: null } });
  });

  it("keeps development and test zero-setup: demo users, the embedded database, unsigned webhooks", () => {
    for (const NODE_ENV of ["development", "test"]) {
      const env = parseEnv({ NODE_ENV });
      expect(env).toMatchObject({ demoMode: true, databaseUrl: null, service: { webhookSecret: null } });
    }
  });

  it("stops production without a team id: every team route of the real service would answer 404", () => {
    const { SERVICE_TEAM_ID: _t, ...withoutTeam } = production;
    expect(() => parseEnv(withoutTeam)).toThrow(/SERVICE_TEAM_ID/);
  });

  it("refuses a real service in any mode without its team id, client id and secret, naming each", () => {
    const real = { SERVICE_BASE_URL: "https://api.service.example/api/v1.0.0" };
    expect(() => parseEnv(real)).toThrow(
      /api\.service\.example, not the local sandbox; set SERVICE_TEAM_ID, SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET/,
    );
    expect(() => parseEnv({ ...real, SERVICE_TEAM_ID: "t", SERVICE_CLIENT_ID: "c" })).toThrow(
      /set SERVICE_CLIENT_SECRET \(/,
    );
    expect(
      parseEnv({ ...real, SERVICE_TEAM_ID: "t", SERVICE_CLIENT_ID: "c", SERVICE_CLIENT_SECRET: "s" }).service,
    ).toMatchObject({ teamId: "t", clientId: "c", clientSecret: "s" });
    // The sandbox on this machine keeps its zero-setup defaults, whatever its port.
    expect(parseEnv({ SERVICE_BASE_URL: "http://127.0.0.1:4110/api/v1.0.0" }).service.clientId).toBe(
      "coverdesk-dev-client",
    );
  });

  it("keeps webhook signatures acceptable for 8 hours unless told otherwise, within bounds", () => {
    expect(parseEnv({}).service.webhookMaxAgeSeconds).toBe(28_800);
    expect(parseEnv({ SERVICE_WEBHOOK_MAX_AGE_SECONDS: "600" }).service.webhookMaxAgeSeconds).toBe(600);
    expect(() => parseEnv({ SERVICE_WEBHOOK_MAX_AGE_SECONDS: "5" })).toThrow(/SERVICE_WEBHOOK_MAX_AGE_SECONDS/);
    expect(() => parseEnv({ SERVICE_WEBHOOK_MAX_AGE_SECONDS: "soon" })).toThrow(/SERVICE_WEBHOOK_MAX_AGE_SECONDS/);
  });

  it("sends digests over SMTP in production, and to a folder of .eml files without it elsewhere", () => {
    const { COVERDESK_SMTP_URL: _smtp, ...noMail } = PRODUCTION_ENV;
    expect(() => parseEnv(noMail)).toThrow(/Missing required environment variable in production: COVERDESK_SMTP_URL/);
    expect(parseEnv(PRODUCTION_ENV).mail).toMatchObject({
      smtpUrl: "smtp://alerts:mail-password@smtp.example.com:587?requireTLS=true",
      from: "Coverdesk <alerts@example.com>",
    });
    expect(parseEnv({}).mail).toEqual({
      smtpUrl: null,
      from: "Coverdesk <alerts@coverdesk.localhost>",
      outboxDir: ".data/mail",
    });
    expect(() => parseEnv({ COVERDESK_SMTP_URL: "http://mail.example.com" })).toThrow(/COVERDESK_SMTP_URL/);
    expect(() => parseEnv({ COVERDESK_MAIL_FROM: "not an address" })).toThrow(/COVERDESK_MAIL_FROM/);
    expect(parseEnv({ COVERDESK_MAIL_FROM: "alerts@agency.example" }).mail.from).toBe("alerts@agency.example");
  });

  it("reads DATABASE_REPLICA_URLS as a list of PostgreSQL addresses, and refuses a bad one or replicas of the embedded database", () => {
    expect(parseEnv({}).databaseReplicaUrls).toEqual([]);
    expect(parseEnv(production).databaseReplicaUrls).toEqual([]);
    const two = "postgres://app@replica-1:5432/coverdesk, postgresql://app@replica-2/coverdesk,";
    expect(parseEnv({ ...production, DATABASE_REPLICA_URLS: two }).databaseReplicaUrls).toEqual([
      "postgres://app@replica-1:5432/coverdesk",
      "postgresql://app@replica-2/coverdesk",
    ]);
    for (const bad of ["mysql://replica/coverdesk", "postgres://", "postgres://replica:port/x", ","]) {
      expect(() => parseEnv({ ...production, DATABASE_REPLICA_URLS: bad }), bad).toThrow(/DATABASE_REPLICA_URLS/);
    }
    expect(() => parseEnv({ ...production, DATABASE_REPLICA_URLS: "postgres://r/x,postgres://r/x" })).toThrow(
      /DATABASE_REPLICA_URLS: must not name the same replica twice/,
    );
    // The embedded database has no replicas: in development too, a setting that cannot work stops the start.
    expect(() => parseEnv({ DATABASE_REPLICA_URLS: "postgres://replica/coverdesk" })).toThrow(
      /DATABASE_REPLICA_URLS: replicas need DATABASE_URL/,
    );
    expect(() => parseEnv({ ...production, DATABASE_URL: "", DATABASE_REPLICA_URLS: "postgres://r/x" })).toThrow(
      /DATABASE_REPLICA_URLS/,
    );
  });

  it("names the variable of a bad value", () => {
    expect(() => parseEnv({ SERVICE_BASE_URL: "https://service.example.com/api" })).toThrow(
      /SERVICE_BASE_URL: must end in \/v1\.0\.0/,
    );
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ SERVICE_SIGNATURE_HEADER: "bad header" })).toThrow(/SERVICE_SIGNATURE_HEADER/);
    expect(() => parseEnv({ COVERDESK_DEMO_MODE: "maybe" })).toThrow(/COVERDESK_DEMO_MODE/);
  });

  it("normalises the base URL and the header name", () => {
    const env = parseEnv({
      SERVICE_BASE_URL: "http://localhost:4010/api/v1.0.0/",
      SERVICE_SIGNATURE_HEADER: "X-Signature",
    });
    expect(env.service.baseUrl).toBe("http://localhost:4010/api/v1.0.0");
    expect(env.service.signatureHeader).toBe("x-signature");
  });

  it("seals with the key ring production names, first key first, and refuses a malformed or missing ring", () => {
    const k = (fill: number) => Buffer.alloc(32, fill).toString("base64");
    const ring = parseEnv({ ...production, COVERDESK_ENCRYPTION_KEYS: `k2:${k(2)}, k1:${k(1)}` }).dataProtection.keys;
    expect(ring.map((key) => key.id)).toEqual(["k2", "k1"]);
    expect(ring[0]?.key.equals(Buffer.alloc(32, 2))).toBe(true);
    const { COVERDESK_ENCRYPTION_KEYS: _keys, ...noRing } = production;
    expect(() => parseEnv(noRing)).toThrow(/COVERDESK_ENCRYPTION_KEYS/);
    expect(() => parseEnv({ ...production, COVERDESK_ENCRYPTION_KEYS: "k1:short" })).toThrow(
      /COVERDESK_ENCRYPTION_KEYS/,
    );
    expect(() => parseEnv({ ...production, COVERDESK_ENCRYPTION_KEYS: `k1:${k(1)},k1:${k(2)}` })).toThrow(
      /key ids must be distinct/,
    );
    expect(() => parseEnv({ ...production, COVERDESK_INDEX_KEY: "c2hvcnQ=" })).toThrow(
      /COVERDESK_INDEX_KEY: must be at least 32 bytes/,
    );
    // Development needs none of it: keys derived from the session secret, the same at every start.
    expect(
      parseEnv({}).dataProtection.keys[0]?.key.equals(parseEnv({}).dataProtection.keys[0]?.key ?? Buffer.alloc(0)),
    ).toBe(true);
  });

  it("forces a second factor in production unless COVERDESK_MFA_REQUIRED=false, which it names at start", () => {
    expect(parseEnv(production).mfaOptOut).toBe(false);
    const optOut = parseEnv({ ...production, COVERDESK_MFA_REQUIRED: "false" });
    expect(optOut.mfaOptOut).toBe(true);
    expect(optOut.warnings.join("\n")).toMatch(/COVERDESK_MFA_REQUIRED=false/);
    expect(parseEnv({ COVERDESK_MFA_REQUIRED: "false" }).mfaOptOut).toBe(false);
  });

  it("turns AgencyZoom off in production unless configured, and refuses an address without its user", () => {
    expect(parseEnv(production).agencyzoom).toBeNull();
    expect(() => parseEnv({ ...production, AGENCYZOOM_BASE_URL: "https://api.agencyzoom.com" })).toThrow(
      /AGENCYZOOM_USERNAME and AGENCYZOOM_PASSWORD/,
    );
    expect(() =>
      parseEnv({
        ...production,
        AGENCYZOOM_BASE_URL: "https://api.agencyzoom.com",
        AGENCYZOOM_USERNAME: "ops@agency.example",
      }),
    ).toThrow(/set AGENCYZOOM_PASSWORD/);
    expect(() =>
      parseEnv({
        ...production,
        AGENCYZOOM_BASE_URL: "http://api.agencyzoom.com",
        AGENCYZOOM_USERNAME: "ops@agency.example",
        AGENCYZOOM_PASSWORD: "secret",
      }),
    ).toThrow(/AGENCYZOOM_BASE_URL: must be https/);
    expect(
      parseEnv({
        ...production,
        AGENCYZOOM_BASE_URL: "https://api.agencyzoom.com/",
        AGENCYZOOM_USERNAME: "ops@agency.example",
        AGENCYZOOM_PASSWORD: "secret",
      }).agencyzoom,
    ).toMatchObject({ baseUrl: "https://api.agencyzoom.com", username: "ops@agency.example", password: "secret" });
    // Development points at the stand-in with its demo user, with nothing set.
    expect(parseEnv({}).agencyzoom).toMatchObject({
      baseUrl: "http://localhost:4020",
      username: "demo@agency.example",
    });
  });
});
