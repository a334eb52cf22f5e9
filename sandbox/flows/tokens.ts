import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SandboxContext } from "../context";
import { flowState } from "./state";

// The pull_jwt that authorises the whitelabel follow-up calls of one pull: a compact HS256
// JWT signed with a per-sandbox secret, expiring an hour (of sandbox clock) after issue.

const PULL_JWT_TTL_MS = 60 * 60 * 1000;
const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

function signature(secret: Buffer, signed: string): string {
  return createHmac("sha256", secret).update(signed).digest("base64url");
}

export function issuePullJwt(ctx: SandboxContext, pullId: string): string {
  const now = ctx.clock.now().getTime();
  const payload = Buffer.from(
    JSON.stringify({ pull_id: pullId, iat: Math.floor(now / 1000), exp: Math.floor((now + PULL_JWT_TTL_MS) / 1000) }),
  ).toString("base64url");
  return `${HEADER}.${payload}.${signature(flowState(ctx).secret, `${HEADER}.${payload}`)}`;
}

/** True only for an unexpired token this sandbox issued for exactly this pull. */
export function pullJwtAllows(ctx: SandboxContext, token: string | undefined, pullId: string): boolean {
  const [header, payload, given, ...rest] = (token ?? "").split(".");
  if (!header || !payload || !given || rest.length > 0) return false;
  const expected = Buffer.from(signature(flowState(ctx).secret, `${header}.${payload}`));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      pull_id?: unknown;
      exp?: unknown;
    };
    return claims.pull_id === pullId && typeof claims.exp === "number" && claims.exp * 1000 > ctx.clock.now().getTime();
  } catch {
    return false;
  }
}

/** Reconnect tokens are opaque; they live a week of sandbox clock. */
const RECONNECT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function issueReconnectToken(ctx: SandboxContext, monitoringId: string, pullId: string): string {
  const token = `rct_${randomBytes(24).toString("hex")}`;
  flowState(ctx).reconnectTokens.set(token, {
    token,
    monitoringId,
    pullId,
    expiresAt: ctx.clock.now().getTime() + RECONNECT_TTL_MS,
    used: false,
  });
  return token;
}

/** The hosted reconnect page of the link the account was made on, with the token embedded. */
export function reconnectUrl(publicAlias: unknown, token: string): string {
  const alias = typeof publicAlias === "string" && publicAlias !== "" ? publicAlias : "link";
  return `https://link.example.com/${encodeURIComponent(alias)}/reconnect?reconnect_token=${token}`;
}
