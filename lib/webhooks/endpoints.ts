import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import { checkDownloadUrl, DownloadBlockedError, type DownloadPolicy } from "@/lib/security/download-guard";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { WEBHOOK_EVENTS } from "./events";

// The endpoints other systems register (POST /api/v1/webhook-endpoints, Zapier's "subscribe"):
// each has its own signing secret, shown once when it is made, kept sealed. An address is
// checked as a download's is (lib/security/download-guard.ts): https and public addresses only
// in production; plain http and this machine's loopback outside it. It is checked again at each
// delivery, since its DNS may change.

/** How long the old secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The URL policy of webhook deliveries, from the environment: loopback and http outside production only. */
export const webhookUrlPolicy = (nodeEnv: "development" | "production" | "test"): DownloadPolicy => ({
  allowLocal: nodeEnv !== "production",
  allowedHosts: null,
});

/** A Standard Webhooks secret: `whsec_` and 32 random bytes, base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

export const createEndpointInputSchema = z.object({
  url: z.url({ protocol: /^https?$/, message: "Give the endpoint's address: an https URL." }).max(2000),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { message: `Events are ${WEBHOOK_EVENTS.join(", ")}.` }))
    .min(1, "Name at least one event.")
    .max(WEBHOOK_EVENTS.length),
});
export type CreateEndpointInput = z.infer<typeof createEndpointInputSchema>;

export type WebhookEndpoint = {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  createdByName: string;
  disabledAt: Date | null;
  disabledReason: string | null;
};

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt,
  createdByName: row.createdByName,
  disabledAt: row.disabledAt,
  disabledReason: row.disabledReason,
});

type Refusal = { ok: false; code: "INVALID"; message: string; field: string };

/** Whether an address may receive deliveries under `policy`: null when it may, else why not. */
export async function refuseWebhookUrl(url: string, policy: DownloadPolicy): Promise<string | null> {
  try {
    await checkDownloadUrl(new URL(url), policy);
    return null;
  } catch (error) {
    if (error instanceof DownloadBlockedError) return `This address may not receive webhooks: ${error.message}.`;
    if (error instanceof TypeError) return "Give the endpoint's address: an https URL.";
    throw error;
  }
}

export async function createWebhookEndpoint(
  db: Db,
  input: CreateEndpointInput,
  by: { name: string; userId?: string | null },
  policy: DownloadPolicy,
): Promise<({ ok: true; secret: string } & WebhookEndpoint) | Refusal> {
  const parsed = createEndpointInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      code: "INVALID",
      message: issue?.message ?? "Check the input.",
      field: String(issue?.path[0] ?? ""),
    };
  }
  const refused = await refuseWebhookUrl(parsed.data.url, policy);
  if (refused) return { ok: false, code: "INVALID", message: refused, field: "url" };
  const secret = newWebhookSecret();
  const id = crypto.randomUUID();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id,
      url: parsed.data.url,
      events: [...new Set(parsed.data.events)],
      secretSealed: sealSecret(secret, `webhook-endpoint:${id}`),
      createdByName: by.name,
      createdBy: by.userId ?? null,
    })
    .returning();
  if (!row) throw new Error("the endpoint was not stored");
  return { ok: true, secret, ...toEndpoint(row) };
}

/** Live endpoints (not deleted), newest first. */
export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(isNull(webhookEndpoints.deletedAt))
    .orderBy(desc(webhookEndpoints.createdAt), webhookEndpoints.id);
  return rows.map(toEndpoint);
}

export async function getWebhookEndpoint(db: Db, id: string): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)));
  return row ? toEndpoint(row) : null;
}

/** Deletes an endpoint (Zapier's "unsubscribe"): no more deliveries; its pending ones are dropped. */
export async function deleteWebhookEndpoint(db: Db, id: string, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ deletedAt: now })
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
      .returning({ id: webhookEndpoints.id });
    if (!row) return false;
    await tx
      .update(webhookDeliveries)
      .set({ status: "FAILED", lastError: "endpoint deleted" })
      .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, "PENDING")));
    return true;
  });
}

/** A new secret for an endpoint; the old one keeps signing beside it for ROTATION_OVERLAP_MS. */
export async function rotateWebhookSecret(
  db: Db,
  id: string,
  now: Date = new Date(),
): Promise<{ secret: string; previousSecretExpiresAt: Date } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
      .for("update");
    if (!row) return null;
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    await tx
      .update(webhookEndpoints)
      .set({
        secretSealed: sealSecret(secret, `webhook-endpoint:${id}`),
        previousSecretSealed: row.secretSealed,
        previousSecretExpiresAt,
      })
      .where(eq(webhookEndpoints.id, id));
    return { secret, previousSecretExpiresAt };
  });
}

/** The secrets that sign a delivery now: the current one, and the previous one during its overlap. */
export function signingSecretsOf(
  row: Pick<WebhookEndpointRow, "id" | "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt">,
  now: Date,
): string[] {
  const context = `webhook-endpoint:${row.id}`;
  const secrets = [openSecret(row.secretSealed, context)];
  if (row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now)
    secrets.push(openSecret(row.previousSecretSealed, context));
  return secrets.filter((secret): secret is string => secret !== null);
}

export type WebhookDeliverySummary = {
  id: string;
  endpointId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  deliveredAt: Date | null;
};

/** The newest deliveries of each endpoint named, at most `perEndpoint` each. */
export async function listRecentDeliveries(
  db: Db,
  endpointIds: string[],
  perEndpoint = 20,
): Promise<WebhookDeliverySummary[]> {
  if (endpointIds.length === 0) return [];
  const ranked = db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      rank: sql<number>`row_number() over (partition by ${webhookDeliveries.endpointId} order by ${webhookDeliveries.createdAt} desc, ${webhookDeliveries.id})`.as(
        "rank",
      ),
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, endpointIds))
    .as("ranked");
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${perEndpoint}`)
    .orderBy(desc(ranked.createdAt));
  return rows.map(({ rank: _rank, ...row }) => row);
}

/** Sends a delivery again at the next run of the worker (the admin page's Resend). */
export async function resendWebhookDelivery(db: Db, id: string, now: Date = new Date()): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: "PENDING", nextAttemptAt: now, lastError: null })
    .where(eq(webhookDeliveries.id, id))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}
