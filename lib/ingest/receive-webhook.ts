import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/db/connect";
import { columnName } from "@/db/sql";
import type { Db } from "@/db/types";
import { erasedSubjects, webhookEventKeys, webhookEvents } from "@/db/schema";
import { DEFAULT_WEBHOOK_MAX_AGE_SECONDS } from "@/lib/env";
import { verifySignature, type SignatureCheck } from "@/lib/service/signature";
import type { SigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { erasedSubjectsMatch, erasedSubjectsOf, type ErasedSubject } from "@/lib/privacy/erased-subjects";

// Receiving a webhook means one thing: the event is committed to the inbox. Fetching the
// pull is the worker's job, so the answer is fast and a slow service never costs a delivery.

export const MAX_WEBHOOK_BYTES = 1024 * 1024;

// Only what the inbox needs is required here; the body is a notification, never data.
const envelopeSchema = z.looseObject({
  event_type: z.string().trim().min(1, "event_type is required").max(64),
  pull_id: z.uuid("pull_id must be a UUID"),
});

// What an erased consumer may be named by in a body (read leniently: an odd value names no one).
const subjectSchema = z.looseObject({
  account_identifier: z.string().nullish().catch(null),
  monitoring: z
    .looseObject({ initial_pull_id: z.string().nullish().catch(null) })
    .nullish()
    .catch(null),
});

export type ReceiveResult = { status: number; body: Record<string, unknown> };

export type ReceiveOptions = {
  /** SERVICE_WEBHOOK_SECRET: accepted besides the registrations' secrets; once set, every delivery must be signed. */
  webhookSecret: string | null;
  /** The secrets of the team's webhook registrations, as the service lists them. */
  registrationSecrets?: SigningSecrets;
  /** Production: every delivery must carry a signature made with a known secret, whatever else is set. */
  requireSignature?: boolean;
  signatureHeader: string | null; // the header's value as received
  /** How old a signature may be (SERVICE_WEBHOOK_MAX_AGE_SECONDS). */
  maxSignatureAgeSeconds?: number;
  nowSeconds?: number;
};

class UnstorableText extends Error {}

// Valid JSON that PostgreSQL cannot store (a NUL character, or half of a surrogate pair, in any
// key or string) would fail the insert on every delivery: refused up front as a bad body, so
// the sender is told once instead of retrying forever.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function refuseUnstorableText(key: string, value: unknown): unknown {
  for (const text of [key, value]) {
    if (typeof text === "string" && (text.includes("\u0000") || LONE_SURROGATE.test(text))) {
      throw new UnstorableText("The body holds text that cannot be stored (a NUL character or a lone surrogate).");
    }
  }
  return value;
}

export function dedupKeyOf(rawBody: string): string {
  // The sender retries with the identical body, so the body's hash identifies the event.
  return createHash("sha256").update(rawBody).digest("hex");
}

/**
 * Where a signature is required (production, or SERVICE_WEBHOOK_SECRET set), it must be made
 * with one of the known secrets: SERVICE_WEBHOOK_SECRET and the registrations'. One that matches
 * none is checked once more against the registrations read again (one made since the last
 * read), as often as the store allows. Elsewhere (development and tests) nothing is checked: a
 * signature that need not be there could simply be left off, and the Events page says so.
 */
async function checkSignature(rawBody: string, options: ReceiveOptions): Promise<SignatureCheck> {
  if (options.requireSignature !== true && options.webhookSecret === null) return { ok: true };
  const verify = (secrets: readonly string[]) =>
    verifySignature({
      secrets,
      header: options.signatureHeader,
      rawBody,
      nowSeconds: options.nowSeconds,
      maxAgeSeconds: options.maxSignatureAgeSeconds ?? DEFAULT_WEBHOOK_MAX_AGE_SECONDS,
    });
  const own = options.webhookSecret ? [options.webhookSecret] : [];
  // SERVICE_WEBHOOK_SECRET first: a delivery it signed needs no registration read, nor does a
  // signature that is missing or whose form or age is wrong whatever the secret.
  const first = verify(own);
  const registrations = options.registrationSecrets;
  if (first.ok || first.reason !== "mismatch" || !registrations) return first;
  const check = verify([...own, ...(await registrations.current())]);
  if (check.ok) return check;
  const readAgain = await registrations.readAgainForUnknownSignature();
  return readAgain ? verify([...own, ...readAgain]) : check;
}

export async function receiveWebhook(db: Db, rawBody: string, options: ReceiveOptions): Promise<ReceiveResult> {
  if (Buffer.byteLength(rawBody) > MAX_WEBHOOK_BYTES) {
    return { status: 413, body: { error: "PAYLOAD_TOO_LARGE", message: "Webhook bodies are limited to 1 MB." } };
  }
  const check = await checkSignature(rawBody, options);
  if (!check.ok) {
    return { status: 401, body: { error: "INVALID_SIGNATURE", message: `Signature ${check.reason}.` } };
  }

  let json: unknown;
  try {
    json = JSON.parse(rawBody, refuseUnstorableText);
  } catch (error) {
    if (error instanceof UnstorableText)
      return { status: 400, body: { error: "INVALID_JSON", message: error.message } };
    return { status: 400, body: { error: "INVALID_JSON", message: "The body is not valid JSON." } };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    const message = envelope.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    return { status: 400, body: { error: "INVALID_EVENT", message } };
  }

  // An erased consumer's event is answered as received (the sender stops retrying) and dropped:
  // the body names the person. The refusal is counted on the erased subject (lib/privacy). One
  // statement does both, so that the acknowledgement waits on one round trip to the database.
  const subject = subjectSchema.parse(json);
  const subjects = erasedSubjectsOf({
    pullIds: [envelope.data.pull_id, subject.monitoring?.initial_pull_id ?? null].filter((v): v is string =>
      Boolean(v),
    ),
    accounts: [subject.account_identifier ?? null],
  });
  const stored = await storeInInbox(db, subjects, dedupKeyOf(rawBody), {
    eventType: envelope.data.event_type,
    pullId: envelope.data.pull_id,
    payload: json,
  });
  if (stored === "refused") return { status: 200, body: { received: true, duplicate: false } };
  const duplicate = stored === "duplicate";
  return { status: duplicate ? 200 : 202, body: { received: true, duplicate } };
}

/**
 * One statement: an erased consumer's event is refused (and the refusal counted); else the dedup
 * key is claimed in webhook_event_keys with the id the event will take (its primary key makes a
 * concurrent redelivery wait, then do nothing), and the event is inserted under that id. The
 * inbox is partitioned by month, so its own unique index could not hold the key alone
 * (docs/growth.md). One round trip, so the acknowledgement waits on the database once.
 */
async function storeInInbox(
  db: Db,
  subjects: ErasedSubject[],
  dedupKey: string,
  event: { eventType: string; pullId: string; payload: unknown },
): Promise<"stored" | "duplicate" | "refused"> {
  const k = webhookEventKeys;
  const e = webhookEvents;
  const [row] = await queryRows<{ refused: boolean; id: number | null }>(
    db,
    sql`with refused as (
          update ${erasedSubjects}
          set ${columnName(erasedSubjects.refusals)} = ${erasedSubjects.refusals} + 1, ${columnName(erasedSubjects.lastRefusedAt)} = now()
          where ${erasedSubjectsMatch(subjects)}
          returning 1
        ), claimed as (
          insert into ${k} (${columnName(k.dedupKey)}, ${columnName(k.eventId)})
          select ${dedupKey}, nextval(pg_get_serial_sequence('webhook_events', 'id'))
          where not exists (select 1 from refused)
          on conflict do nothing
          returning ${columnName(k.eventId)}
        ), inserted as (
          insert into ${e} (${columnName(e.id)}, ${columnName(e.dedupKey)}, ${columnName(e.eventType)}, ${columnName(e.pullId)}, ${columnName(e.payload)})
          select claimed.event_id, ${dedupKey}, ${event.eventType}, ${event.pullId}::uuid, ${sql.param(event.payload, e.payload)}::jsonb
          from claimed
          returning ${columnName(e.id)}
        )
        select exists (select 1 from refused) as refused, (select id from inserted) as id`,
  );
  if (row?.refused) return "refused";
  return row?.id === null || row?.id === undefined ? "duplicate" : "stored";
}
