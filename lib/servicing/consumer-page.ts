import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { pulls, servicingRequests, type ServicingRequestRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { addressBucket } from "@/lib/security/client-address";
import { hitRateLimit, type RateLimit } from "@/lib/security/rate-limit";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { confirmServicingAction } from "@/lib/service/servicings-api";
import { recordAudit } from "@/lib/audit/audit-log";
import type { FormState } from "@/lib/core/form-state";
import { configuredServicingLinkKey, readServicingPageToken } from "./link";
import { advanceServicing } from "./progress";
import { refreshServicing } from "./refresh";
import { isSettled } from "./status";
import { describeServicingChange, sentence, validationWords } from "./words";

// The consumer's side of a servicing request (app/servicing/[token]): no login, the token in the
// address is the key, checked and rate-limited on every view and answer. The consumer reads the
// change in plain words and confirms or declines it; the answer goes to the service with the
// SERVICING pull's JWT, which never leaves the server.

export const SERVICING_PAGE_LIMITS = {
  badTokensPerAddress: { limit: 20, windowSeconds: 15 * 60 },
  viewsPerAddress: { limit: 400, windowSeconds: 10 * 60 },
  answersPerPage: { limit: 10, windowSeconds: 15 * 60 },
  answersPerAddress: { limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

const tooMany = (seconds: number) =>
  `Too many attempts. Wait ${Math.max(1, Math.ceil(seconds / 60))} minute${seconds > 60 ? "s" : ""} and try again.`;

type Guard = { ok: true; id: string } | { ok: false; status: 404 | 429; message: string };

async function guard(db: Db, token: string, address: string, purpose: "view" | "answer"): Promise<Guard> {
  const bucket = addressBucket(address);
  const id = readServicingPageToken(configuredServicingLinkKey(), token);
  if (!id) {
    const bad = await hitRateLimit(db, `servicing-page:bad-token:${bucket}`, SERVICING_PAGE_LIMITS.badTokensPerAddress);
    return {
      ok: false,
      status: bad.allowed ? 404 : 429,
      message: bad.allowed ? "This link is not valid." : tooMany(bad.retryAfterSeconds),
    };
  }
  const checks: Array<[string, RateLimit]> =
    purpose === "view"
      ? [[`servicing-page:views:${bucket}`, SERVICING_PAGE_LIMITS.viewsPerAddress]]
      : [
          [`servicing-page:answers:${id}`, SERVICING_PAGE_LIMITS.answersPerPage],
          [`servicing-page:answers-from:${bucket}`, SERVICING_PAGE_LIMITS.answersPerAddress],
        ];
  for (const [key, limit] of checks) {
    const hit = await hitRateLimit(db, key, limit);
    if (!hit.allowed) return { ok: false, status: 429, message: tooMany(hit.retryAfterSeconds) };
  }
  return { ok: true, id };
}

/** Where the consumer stands. */
export type ServicingStep =
  /** The service is still getting the carrier ready: the page looks again shortly. */
  | { kind: "preparing" }
  | { kind: "ready" }
  /** Confirmed; the carrier is making the change. */
  | { kind: "submitting" }
  | { kind: "done" }
  | { kind: "declined" }
  | { kind: "refused"; reason: string }
  | { kind: "expired" };

export type ServicingPageView =
  | { kind: "not-found" }
  | { kind: "wait"; message: string }
  | {
      kind: "page";
      step: ServicingStep;
      carrier: string;
      change: string;
      /** The carrier's own words about the change, when the service passed them on. */
      carrierSummary: string | null;
    };

export function servicingStep(row: ServicingRequestRow, now: Date): ServicingStep {
  switch (row.status) {
    case "SUCCESS":
    case "VERIFIED":
      return { kind: "done" };
    case "UNCONFIRMED":
      return { kind: "declined" };
    case "VALIDATION_ERROR":
      return {
        kind: "refused",
        reason: `Your insurance company could not make this change: ${validationWords(row.validationErrorType)}. Your agent has been told.`,
      };
    case "VERIFICATION_FAILED":
    case "PROVIDER_ERROR":
    case "INTERNAL_ERROR":
      return {
        kind: "refused",
        reason: "Your insurance company's site could not make this change right now. Your agent has been told.",
      };
    case "SUBMITTING_CONFIRMATION":
      return { kind: "submitting" };
  }
  if (row.consumerAnswer === "DECLINED") return { kind: "declined" };
  if (row.consumerAnswer === "CONFIRMED") return { kind: "submitting" };
  if (row.linkRevokedAt)
    return {
      kind: "refused",
      reason: "Your agency withdrew this link. If you still want this change, ask your agent for a new request.",
    };
  if (!row.servicingActionId)
    return { kind: "refused", reason: "This request was never sent to your insurance company. Ask your agent." };
  if (row.expiresAt <= now) return { kind: "expired" };
  return row.status === "WAITING_FOR_CONSUMER_CONFIRMATION" ? { kind: "ready" } : { kind: "preparing" };
}

const summaryOf = (data: unknown): string | null => {
  const summary = data && typeof data === "object" ? (data as Record<string, unknown>).summary : null;
  return typeof summary === "string" && summary.trim() ? summary.trim().slice(0, 500) : null;
};

async function readRequest(db: Db, id: string) {
  const [row] = await db
    .select({
      request: servicingRequests,
      providerFriendlyName: pulls.providerFriendlyName,
      providerName: pulls.providerName,
    })
    .from(servicingRequests)
    .innerJoin(pulls, eq(pulls.pullId, servicingRequests.pullId))
    .where(eq(servicingRequests.id, id));
  return row ?? null;
}

/** Everything the consumer's page shows for this token, asked from `address`. */
export async function loadServicingPage(
  db: Db,
  service: ServiceConfig,
  token: string,
  address: string,
  now = new Date(),
): Promise<ServicingPageView> {
  const checked = await guard(db, token, address, "view");
  if (!checked.ok) return checked.status === 404 ? { kind: "not-found" } : { kind: "wait", message: checked.message };
  let found = await readRequest(db, checked.id);
  if (!found) return { kind: "not-found" };
  // Still under way: ask the service where it stands, so a late webhook does not keep the consumer waiting.
  if (found.request.servicingActionId && !isSettled(found.request.status) && found.request.expiresAt > now) {
    const moved = await refreshServicing(
      db,
      { ...service, timeoutMs: Math.min(service.timeoutMs, 2_500) },
      found.request,
    ).catch(() => false);
    if (moved) found = (await readRequest(db, checked.id)) ?? found;
  }
  const { request } = found;
  return {
    kind: "page",
    step: servicingStep(request, now),
    carrier: found.providerFriendlyName ?? found.providerName ?? "your insurance company",
    change: sentence(describeServicingChange(request.actionType, request.payload)),
    carrierSummary: summaryOf(request.confirmationData),
  };
}

export type ServicingAnswerInput = { token: string; answer?: string };

/**
 * Who answers: the address that connected (lib/security/client-address.ts), the browser's user
 * agent, and the Coverdesk user whose open session the request carried, if any.
 */
export type ServicingAnswerClient = { address: string; userAgent: string | null; staffUserId: string | null };

/** A user agent as evidence: one line, bounded (the header is the client's to write). */
const userAgentOf = (userAgent: string | null): string | null => {
  const line = (userAgent ?? "")
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, 512);
  return line || null;
};

/** Said to a signed-in user who opens a client's confirm link and answers it. */
export const STAFF_ANSWER_REFUSED =
  "You are signed in to Coverdesk: only the client can confirm or decline this change, on their own device. Send them the link (it goes to their email); do not answer it for them.";

/** What the service's refusals of the answer mean to the consumer. */
function answerRefusal(error: unknown): string {
  if (error instanceof ServiceError && (error.status === 0 || error.status >= 500 || error.status === 429))
    return "We could not reach your insurance company just now, so your answer was not sent. Try again in a minute.";
  return "Your insurance company did not take your answer. Reload the page to see where this request stands, or ask your agent.";
}

/**
 * The consumer's Confirm or Decline: claimed on the row first (one answer per request, whatever
 * the clicks), then sent to the service; if the service does not take it, the claim is given back
 * so the consumer can try again, and nothing is recorded. The answer is kept with the address and
 * browser it came from. A request carrying a signed-in Coverdesk session is refused: staff must
 * not answer for the client.
 */
export async function answerServicingPage(
  db: Db,
  service: ServiceConfig,
  input: ServicingAnswerInput,
  client: ServicingAnswerClient,
  now = new Date(),
): Promise<FormState> {
  const checked = await guard(db, input.token, client.address, "answer");
  if (!checked.ok)
    return { status: "error", message: checked.message, code: checked.status === 429 ? "RATE_LIMITED" : "NOT_FOUND" };
  if (client.staffUserId) return { status: "error", message: STAFF_ANSWER_REFUSED, code: "FORBIDDEN" };
  const userAgent = userAgentOf(client.userAgent);
  if (input.answer !== "confirm" && input.answer !== "decline")
    return { status: "error", message: "Choose Confirm or Decline.", code: "INVALID" };
  const confirmed = input.answer === "confirm";
  const found = await readRequest(db, checked.id);
  if (!found) return { status: "error", message: "This link is not valid.", code: "NOT_FOUND" };
  let row = found.request;
  if (row.servicingActionId && row.status !== "WAITING_FOR_CONSUMER_CONFIRMATION" && !isSettled(row.status)) {
    await refreshServicing(db, service, row).catch(() => false);
    row = (await readRequest(db, checked.id))?.request ?? row;
  }
  const step = servicingStep(row, now);
  if (step.kind === "preparing")
    return {
      status: "error",
      message: "Your insurance company is not ready for your answer yet. Try again in a minute.",
      code: "STALE",
    };
  if (step.kind === "expired")
    return { status: "error", message: "This link has expired. Ask your agent for a new one.", code: "STALE" };
  if (step.kind !== "ready")
    return {
      status: "error",
      message: "This request has already been answered or closed. Reload the page.",
      code: "STALE",
    };
  if (!row.servicingPullId || !row.sessionJwt || !row.servicingActionId)
    return {
      status: "error",
      message: "This request was never sent to your insurance company. Ask your agent.",
      code: "STALE",
    };

  const answer = confirmed ? "CONFIRMED" : "DECLINED";
  const claimed = await db
    .update(servicingRequests)
    .set({
      consumerAnswer: answer,
      consumerAnsweredAt: now,
      consumerAnsweredIp: client.address,
      consumerAnsweredUserAgent: userAgent,
      updatedAt: now,
    })
    .where(and(eq(servicingRequests.id, row.id), isNull(servicingRequests.consumerAnswer)))
    .returning({ id: servicingRequests.id });
  if (claimed.length === 0)
    return { status: "error", message: "This request has already been answered. Reload the page.", code: "STALE" };

  try {
    await confirmServicingAction(
      service,
      { pull_id: row.servicingPullId, pull_jwt: row.sessionJwt },
      row.servicingActionId,
      confirmed,
    );
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) {
      // The service's session for this request ended before the consumer answered: the link is over.
      await db
        .update(servicingRequests)
        .set({
          consumerAnswer: null,
          consumerAnsweredAt: null,
          consumerAnsweredIp: null,
          consumerAnsweredUserAgent: null,
          expiresAt: now,
          error: "The client's confirmation window at the service closed before they answered. Ask again.",
          updatedAt: new Date(),
        })
        .where(eq(servicingRequests.id, row.id));
      return { status: "error", message: "This link has expired. Ask your agent for a new one.", code: "STALE" };
    }
    // INVALID_ACTION: the service holds an answer already (an earlier try that timed out on the way back).
    const current = await refreshServicing(db, service, row)
      .then(() => readRequest(db, row.id))
      .catch(() => null);
    const status = current?.request.status ?? null;
    const alreadyTaken = confirmed
      ? ["SUBMITTING_CONFIRMATION", "SUCCESS", "VERIFIED", "VERIFICATION_FAILED"].includes(status ?? "")
      : status === "UNCONFIRMED";
    if (!alreadyTaken) {
      await db
        .update(servicingRequests)
        .set({
          consumerAnswer: null,
          consumerAnsweredAt: null,
          consumerAnsweredIp: null,
          consumerAnsweredUserAgent: null,
          updatedAt: new Date(),
        })
        .where(and(eq(servicingRequests.id, row.id), eq(servicingRequests.consumerAnswer, answer)));
      return { status: "error", message: answerRefusal(error), code: "CONFLICT" };
    }
  }

  const change = describeServicingChange(row.actionType, row.payload);
  await db.transaction(async (tx) => {
    await advanceServicing(tx, { id: row.id }, { status: confirmed ? "SUBMITTING_CONFIRMATION" : "UNCONFIRMED" });
    await recordAudit(tx, null, confirmed ? "SERVICING_CONFIRMED" : "SERVICING_DECLINED", {
      pullId: row.pullId,
      at: now,
      details: {
        servicingRequestId: row.id,
        actionType: row.actionType,
        change,
        by: "the client",
        address: client.address,
        userAgent,
      },
    });
  });
  return confirmed
    ? { status: "done", message: "Thank you. Your insurance company is making the change." }
    : { status: "done", message: "Thank you. Nothing will be changed." };
}
