import "server-only";
import type { Db } from "@/db/types";
import { addressBucket } from "@/lib/security/client-address";
import { hitRateLimit, type RateLimit } from "@/lib/security/rate-limit";
import { readReconnectPageToken, type ReconnectPageKey } from "./reconnect-page-token";

// The public reconnect page has no login: its token is the key, and rate limits keep anyone
// from guessing tokens or hammering the service through it. Limits count per client address
// and, for answers, per page (a consumer needs a handful of tries; a script needs thousands).

export const RECONNECT_PAGE_LIMITS = {
  /** Tokens that are not ours, from one address. */
  badTokensPerAddress: { limit: 20, windowSeconds: 15 * 60 },
  /** Page loads and status polls (every 2 s while waiting), from one address. */
  viewsPerAddress: { limit: 400, windowSeconds: 10 * 60 },
  /** Answers (credentials, choice, code) to one page. */
  answersPerPage: { limit: 10, windowSeconds: 15 * 60 },
  /** Answers from one address, over every page. */
  answersPerAddress: { limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

export type GuardResult = { ok: true; pageId: string } | { ok: false; status: 404 | 429; message: string };

const tooMany = (seconds: number): GuardResult => ({
  ok: false,
  status: 429,
  message: `Too many attempts. Wait ${Math.max(1, Math.ceil(seconds / 60))} minute${seconds > 60 ? "s" : ""} and try again.`,
});

export async function guardReconnectPage(
  db: Db,
  key: ReconnectPageKey,
  token: string,
  clientAddress: string,
  purpose: "view" | "answer",
): Promise<GuardResult> {
  const address = addressBucket(clientAddress);
  const pageId = readReconnectPageToken(key, token);
  if (!pageId) {
    const bad = await hitRateLimit(
      db,
      `reconnect-page:bad-token:${address}`,
      RECONNECT_PAGE_LIMITS.badTokensPerAddress,
    );
    return bad.allowed
      ? { ok: false, status: 404, message: "This link is not valid." }
      : tooMany(bad.retryAfterSeconds);
  }
  if (purpose === "view") {
    const views = await hitRateLimit(db, `reconnect-page:views:${address}`, RECONNECT_PAGE_LIMITS.viewsPerAddress);
    return views.allowed ? { ok: true, pageId } : tooMany(views.retryAfterSeconds);
  }
  const perPage = await hitRateLimit(db, `reconnect-page:answers:${pageId}`, RECONNECT_PAGE_LIMITS.answersPerPage);
  if (!perPage.allowed) return tooMany(perPage.retryAfterSeconds);
  const perAddress = await hitRateLimit(
    db,
    `reconnect-page:answers-from:${address}`,
    RECONNECT_PAGE_LIMITS.answersPerAddress,
  );
  return perAddress.allowed ? { ok: true, pageId } : tooMany(perAddress.retryAfterSeconds);
}
