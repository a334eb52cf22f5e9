import "server-only";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db/types";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import {
  checkDownloadUrl,
  DownloadBlockedError,
  type DownloadPolicy,
  type ResolvedAddress,
} from "@/lib/security/download-guard";
import { signingSecretsOf } from "./endpoints";

// The delivery worker of the outbox (./events.ts), run every few seconds by the webhook-delivery
// job. Each due delivery is claimed (FOR UPDATE SKIP LOCKED, so two workers never send the same
// one at once), signed per Standard Webhooks 1.0 (webhook-id, webhook-timestamp,
// webhook-signature: one `v1,…` per live secret, space-separated during a rotation) and POSTed.
// A 2xx answer is delivered; 410 Gone disables the endpoint; anything else, a redirect
// included (redirects are never followed), a timeout or a refused address is retried on
// Svix's schedule with ±10% jitter, and given up after the last.

/** Wait before the 2nd, 3rd, … attempt: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 28 hours in all). */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DELIVERY_TIMEOUT_MS = 15_000;
/** A claimed delivery is not claimed again for this long, in case its worker dies mid-send. */
const LEASE_MS = 60_000;
const MAX_RESPONSE_BYTES = 4096;

export type DeliveryOptions = {
  policy: DownloadPolicy;
  now?: Date;
  /** Deliveries sent in one run at most. */
  limit?: number;
  /** 0..1; Math.random by default. 0.5 is no jitter. */
  random?: () => number;
  timeoutMs?: number;
};

export type AttemptOutcome = { statusCode: number | null; error: string | null };

/** The wait before attempt `attempts + 1`, ±10%; null when `attempts` was the last. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

const pinnedLookup =
  (addresses: ResolvedAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    const [first] = addresses;
    if (options.all) callback(null, addresses);
    else callback(null, first?.address ?? "", first?.family);
  };

/** One POST to a checked address; never follows a redirect; reads at most a few KB of the answer. */
async function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  policy: DownloadPolicy,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await checkDownloadUrl(url, policy);
  } catch (error) {
    if (error instanceof DownloadBlockedError) return { statusCode: null, error: `refused: ${error.message}` };
    throw error;
  }
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        agent: false,
        lookup: pinnedLookup(addresses),
        timeout: timeoutMs,
        // The whole attempt, answer included, not only a silent socket.
        signal: AbortSignal.timeout(timeoutMs),
        ...(policy.ca ? { ca: policy.ca } : {}),
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => resolve({ statusCode: response.statusCode ?? null, error: null });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on("error", (error) => resolve({ statusCode: null, error: error.message }));
    request.end(body);
  });
}

/** The Standard Webhooks headers of a message, signed with every secret given. */
export function signDelivery(
  secrets: string[],
  messageId: string,
  at: Date,
  body: string,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}

type Claimed = {
  id: string;
  endpointId: string;
  payload: unknown;
  attempts: number;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
};

async function claimDue(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: webhookDeliveries.id,
        endpointId: webhookDeliveries.endpointId,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
        url: webhookEndpoints.url,
        secretSealed: webhookEndpoints.secretSealed,
        previousSecretSealed: webhookEndpoints.previousSecretSealed,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.status, "PENDING"),
          lte(webhookDeliveries.nextAttemptAt, now),
          isNull(webhookEndpoints.disabledAt),
          isNull(webhookEndpoints.deletedAt),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      .limit(limit)
      .for("update", { of: webhookDeliveries, skipLocked: true });
    for (const row of due)
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
        .where(eq(webhookDeliveries.id, row.id));
    return due;
  });
}

/** Sends what is due; answers how many were delivered, retried later, and given up. */
export async function deliverDueWebhooks(
  db: Db,
  options: DeliveryOptions,
): Promise<{ delivered: number; retrying: number; failed: number }> {
  const now = options.now ?? new Date();
  const random = options.random ?? Math.random;
  const claimed = await claimDue(db, now, options.limit ?? 20);
  const counts = { delivered: 0, retrying: 0, failed: 0 };
  // At once, each within its timeout: the whole batch ends well inside the claims' lease.
  await Promise.all(
    claimed.map(async (delivery) => {
      const body = JSON.stringify(delivery.payload);
      const secrets = signingSecretsOf(
        {
          id: delivery.endpointId,
          secretSealed: delivery.secretSealed,
          previousSecretSealed: delivery.previousSecretSealed,
          previousSecretExpiresAt: delivery.previousSecretExpiresAt,
        },
        now,
      );
      const outcome: AttemptOutcome =
        secrets.length === 0
          ? { statusCode: null, error: "the endpoint's secret does not open (was NEXTAUTH_SECRET changed?)" }
          : await post(
              new URL(delivery.url),
              signDelivery(secrets, delivery.id, now, body),
              body,
              options.policy,
              options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
            );
      const attempts = delivery.attempts + 1;
      const code = outcome.statusCode;
      const base = { attempts, lastStatusCode: code, lastError: outcome.error };
      if (code !== null && code >= 200 && code < 300) {
        await db
          .update(webhookDeliveries)
          .set({ ...base, status: "DELIVERED", deliveredAt: now, lastError: null })
          .where(eq(webhookDeliveries.id, delivery.id));
        counts.delivered++;
      } else if (code === 410) {
        await db.transaction(async (tx) => {
          await tx
            .update(webhookEndpoints)
            .set({ disabledAt: now, disabledReason: "The endpoint answered 410 Gone." })
            .where(and(eq(webhookEndpoints.id, delivery.endpointId), isNull(webhookEndpoints.disabledAt)));
          await tx
            .update(webhookDeliveries)
            .set({ ...base, status: "FAILED", lastError: "410 Gone: endpoint disabled" })
            .where(eq(webhookDeliveries.id, delivery.id));
        });
        counts.failed++;
      } else {
        const error =
          outcome.error ??
          (code !== null && code >= 300 && code < 400 ? `redirect ${code} not followed` : `status ${code}`);
        const delay = retryDelayMs(attempts, random);
        await db
          .update(webhookDeliveries)
          .set(
            delay === null
              ? { ...base, lastError: error, status: "FAILED" }
              : { ...base, lastError: error, nextAttemptAt: new Date(now.getTime() + delay) },
          )
          .where(eq(webhookDeliveries.id, delivery.id));
        if (delay === null) counts.failed++;
        else counts.retrying++;
      }
    }),
  );
  return counts;
}

/** Deliveries waiting, for the job's line. */
export async function countPendingDeliveries(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "PENDING"));
  return row?.n ?? 0;
}

/** How long a finished delivery (delivered or given up) stays on the admins' page and in the database. */
export const FINISHED_DELIVERY_DAYS = 30;

/**
 * Removes deliveries finished more than FINISHED_DELIVERY_DAYS ago: the outbox is a log of what
 * went out, not an archive, and each row names a pull. A delivery still due is never removed.
 */
export async function pruneFinishedDeliveries(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - FINISHED_DELIVERY_DAYS * 86_400_000);
  const removed = await db
    .delete(webhookDeliveries)
    .where(
      and(
        sql`${webhookDeliveries.status} <> 'PENDING'`,
        sql`coalesce(${webhookDeliveries.deliveredAt}, ${webhookDeliveries.nextAttemptAt}) <= ${cutoff.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return removed.length;
}
