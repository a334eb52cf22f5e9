import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { checksWebhookSignatures, teamSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { MAX_WEBHOOK_BYTES, receiveWebhook } from "./receive-webhook";
import { wakeWorker } from "./worker";

// The HTTP side of the webhook receiver (POST /api/webhooks/service): a bounded body, a
// deadline on storing it, and an answer the service understands. What is stored and how it is
// checked is ./receive-webhook.ts; the worker fetches the pulls.

/**
 * While the database reconnects, queries wait instead of failing; past this the sender is
 * told to deliver again rather than left hanging. An insert that lands later is harmless:
 * the redelivery is recognised as a duplicate.
 */
const STORE_DEADLINE_MS = 5_000;

export function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The body as text, or null when it is (or declares itself) longer than `limit` bytes. */
export async function readBounded(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Receives one delivery into the inbox and wakes the worker for a new event. */
export async function answerWebhookRequest(request: Request): Promise<Response> {
  const rawBody = await readBounded(request, MAX_WEBHOOK_BYTES);
  if (rawBody === null) {
    return Response.json(
      { error: "PAYLOAD_TOO_LARGE", message: "Webhook bodies are limited to 1 MB." },
      { status: 413 },
    );
  }
  const config = env();
  const { service } = config;
  try {
    const result = await withinDeadline(
      (async () =>
        receiveWebhook(await getDb(), rawBody, {
          webhookSecret: service.webhookSecret,
          registrationSecrets: teamSigningSecrets(service),
          requireSignature: checksWebhookSignatures(config),
          signatureHeader: request.headers.get(service.signatureHeader),
          maxSignatureAgeSeconds: service.webhookMaxAgeSeconds,
        }))(),
      STORE_DEADLINE_MS,
    );
    if (result.status === 202) wakeWorker();
    return Response.json(result.body, { status: result.status });
  } catch (error) {
    // A non-2xx answer makes the service deliver again later, so nothing is lost.
    // The driver's reason, not the query builder's wrapper (which spells out the payload).
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : String(error);
    console.error(`[webhook] could not store the event: ${reason}`);
    return Response.json(
      { error: "UNAVAILABLE", message: "The event could not be stored; deliver it again." },
      { status: 503 },
    );
  }
}
