import "server-only";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { monitorings, pullAuthStates, pulls, reconnectPages, type ReconnectPageRow } from "@/db/schema";
import type { Db } from "@/db/types";
import type { IdvOption } from "@/lib/service/schemas/webhooks";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import type { CommandResult } from "@/lib/core/result";
import { getReconnectRequest } from "./reconnect";
import { newReconnectPageId, reconnectPageToken, type ReconnectPageKey } from "./reconnect-page-token";

// The reconnect page Coverdesk hosts for a consumer: staff make one for an account on the
// worklist; the consumer's next step is read from what the service last said (AUTH_STATUS by
// webhook, or where the refresh stopped) and from the answer the page is waiting on.

const PAGE_LIFETIME_DAYS = 7;
/** After this long without a new status, the waiting page says that the carrier is slow. */
const SLOW_AFTER_MS = 90_000;

export type ReconnectStep =
  | { kind: "credentials"; message: string | null }
  | { kind: "options"; options: IdvOption[] }
  | { kind: "code"; message: string | null }
  | { kind: "waiting"; slow: boolean }
  | { kind: "done" }
  /** The agency cannot reconnect accounts on its own page: the service's hosted page, when a link is held. */
  | { kind: "hosted"; url: string | null }
  | { kind: "closed"; reason: string }
  | { kind: "expired" };

export type ReconnectPageView = {
  page: ReconnectPageRow;
  /** The carrier's name for display. */
  carrier: string | null;
  /** The names the account's pull gives its carrier (identifier, friendly name), to find its id in GET /carriers. */
  carrierNames: string[];
  /** The pull whose login the consumer is moving forward. */
  pullId: string | null;
  /** The AUTH_STATUS sequence the page stands on (0 when none yet). */
  sequence: number;
  step: ReconnectStep;
  /** Changes whenever the step could: the page polls it to know when to re-render. */
  version: string;
};

export const DEFAULT_BAD_CREDENTIALS =
  "Your insurance company did not accept that username and password. Check them and try again.";

/**
 * The service refused the reconnect-token exchange because the agency's plan has no whitelabel
 * access (403 FORBIDDEN): its consumers reconnect on the service's hosted page (`reconnect_url`).
 */
export const HOSTED_ONLY = "WHITELABEL_UNAVAILABLE";

/** A reconnect link safe to put in front of a consumer: a web address, nothing else. */
export function hostedReconnectLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** What each refusal of the service means to the consumer, in their words. */
export const CLOSED_REASONS: Record<string, string> = {
  ALREADY_RECONNECTED: "This account is already reconnected. There is nothing more to do.",
  NEWER_PULL_AVAILABLE: "Your account has refreshed since this link was made. There is nothing more to do.",
  MONITORING_INACTIVE: "Your agency no longer keeps this account up to date, so there is nothing to reconnect.",
  RESOLVED: "This account is already reconnected. There is nothing more to do.",
  REVOKED: "Your agency withdrew this link. If you still need to reconnect, ask your agent for a new one.",
};

/** The reason a page closed when staff withdrew it (a link sent to the wrong person, say). */
export const REVOKED = "REVOKED";

type StepFacts = {
  page: ReconnectPageRow;
  now: Date;
  requestOpen: boolean;
  /** Where the refresh stopped, from MONITORING_RECONNECT. */
  requestedStatus: string | null;
  /** The pull the refresh stopped on. */
  requestPullId: string | null;
  /** The service's hosted reconnect link for the account (webhook or GET …/reconnectToken). */
  reconnectUrl: string | null;
  auth: { authStatus: string | null; sequence: number; loginErrorMessage: string | null; options: unknown } | null;
};

/** The consumer's step, from the facts alone (no I/O), so every case can be tested directly. */
export function reconnectStep({
  page,
  now,
  requestOpen,
  requestedStatus,
  requestPullId,
  reconnectUrl,
  auth,
}: StepFacts): ReconnectStep {
  if (page.completedAt) return { kind: "done" };
  if (page.closedReason === HOSTED_ONLY) {
    if (page.expiresAt <= now) return { kind: "expired" };
    if (!requestOpen) return { kind: "closed", reason: CLOSED_REASONS.RESOLVED ?? "" };
    return { kind: "hosted", url: hostedReconnectLink(reconnectUrl) };
  }
  if (page.closedReason)
    return {
      kind: "closed",
      reason:
        CLOSED_REASONS[page.closedReason] ??
        `Your insurance company could not take this reconnection (${page.closedReason}). Ask your agent for help.`,
    };
  if (page.expiresAt <= now) return { kind: "expired" };
  if (!page.sessionPullId && !requestOpen) return { kind: "closed", reason: CLOSED_REASONS.RESOLVED ?? "" };
  const sequence = auth?.sequence ?? 0;
  if (page.answeredAtSequence !== null && sequence <= page.answeredAtSequence) {
    return {
      kind: "waiting",
      slow: page.answeredAt !== null && now.getTime() - page.answeredAt.getTime() > SLOW_AFTER_MS,
    };
  }
  // A session on a pull other than the one that stopped is a new login: it starts at credentials.
  const freshPull = page.sessionPullId !== null && page.sessionPullId !== requestPullId;
  const status = auth?.authStatus ?? (freshPull ? "NOT_AUTHENTICATED" : requestedStatus) ?? "NOT_AUTHENTICATED";
  const answered = page.answeredAtSequence !== null;
  switch (status) {
    case "SUCCESS":
      return { kind: "done" };
    case "NOT_AUTHENTICATED":
      return { kind: "credentials", message: auth?.loginErrorMessage ?? (answered ? DEFAULT_BAD_CREDENTIALS : null) };
    case "IDENTITY_VERIFICATION_OPTIONS": {
      const options = Array.isArray(auth?.options) ? (auth.options as IdvOption[]) : [];
      return options.length > 0 ? { kind: "options", options } : { kind: "code", message: null };
    }
    case "IDENTITY_VERIFICATION":
      return { kind: "code", message: auth?.loginErrorMessage ?? null };
    default:
      return {
        kind: "closed",
        reason: `Your insurance company's site answered in a way we cannot continue from (${status}). Ask your agent for help.`,
      };
  }
}

export async function getReconnectPage(db: Db, pageId: string, now = new Date()): Promise<ReconnectPageView | null> {
  const [page] = await db.select().from(reconnectPages).where(eq(reconnectPages.id, pageId));
  if (!page) return null;
  const [monitoring] = await db
    .select({
      requestedAt: monitorings.reconnectRequestedAt,
      requestedStatus: monitorings.reconnectAuthStatus,
      requestPullId: monitorings.reconnectPullId,
      reconnectUrl: monitorings.reconnectUrl,
      carrier: sql<string | null>`coalesce(${pulls.providerFriendlyName}, ${pulls.providerName})`,
      providerName: pulls.providerName,
      providerFriendlyName: pulls.providerFriendlyName,
    })
    .from(monitorings)
    // The monitoring's latest pull (at most one: pull_id is the key), for its carrier.
    .leftJoin(pulls, eq(pulls.pullId, sql`coalesce(${monitorings.latestPullId}, ${monitorings.initialPullId})`))
    .where(eq(monitorings.monitoringId, page.monitoringId));
  const pullId = page.sessionPullId ?? monitoring?.requestPullId ?? null;
  const [auth] = pullId ? await db.select().from(pullAuthStates).where(eq(pullAuthStates.pullId, pullId)) : [];
  const step = reconnectStep({
    page,
    now,
    requestOpen: Boolean(monitoring?.requestedAt),
    requestedStatus: monitoring?.requestedStatus ?? null,
    requestPullId: monitoring?.requestPullId ?? null,
    reconnectUrl: monitoring?.reconnectUrl ?? null,
    auth: auth ?? null,
  });
  const version = [
    step.kind,
    auth?.sequence ?? 0,
    auth?.authStatus,
    page.answeredAtSequence,
    page.sessionPullId,
    page.closedReason,
    page.completedAt?.getTime(),
    monitoring?.requestedAt?.getTime(),
    step.kind === "hosted" ? step.url : null,
  ].join(":");
  const carrierNames = [monitoring?.providerName, monitoring?.providerFriendlyName].filter(
    (n): n is string => typeof n === "string" && n.trim() !== "",
  );
  return {
    page,
    carrier: monitoring?.carrier ?? null,
    carrierNames,
    pullId,
    sequence: auth?.sequence ?? 0,
    step,
    version,
  };
}

/** The address of a page, for staff to send. */
export function reconnectPageUrl(appUrl: string, key: ReconnectPageKey, pageId: string): string {
  return new URL(`/connect/${reconnectPageToken(key, pageId)}`, appUrl).toString();
}

/** Open pages (not done, closed or expired) of the given monitorings, by monitoring id. */
export async function openReconnectPages(db: Db, monitoringIds: string[]): Promise<Map<string, string>> {
  if (monitoringIds.length === 0) return new Map();
  const rows = await db
    .select({ id: reconnectPages.id, monitoringId: reconnectPages.monitoringId })
    .from(reconnectPages)
    .where(
      and(
        inArray(reconnectPages.monitoringId, monitoringIds),
        isNull(reconnectPages.completedAt),
        isNull(reconnectPages.closedReason),
        gt(reconnectPages.expiresAt, sql`now()`),
      ),
    );
  return new Map(rows.map((r) => [r.monitoringId, r.id]));
}

/** Makes (or finds the open) Coverdesk reconnect page for an account on the worklist. */
export async function openReconnectPage(
  db: Db,
  actor: Actor,
  monitoringId: string,
): Promise<CommandResult<{ pageId: string; created: boolean }>> {
  const request = await getReconnectRequest(db, actor, monitoringId);
  if (!request.ok) return request;
  const existing = (await openReconnectPages(db, [monitoringId])).get(monitoringId);
  if (existing) return { ok: true, pageId: existing, created: false };
  const pageId = newReconnectPageId();
  await db.insert(reconnectPages).values({
    id: pageId,
    monitoringId,
    createdBy: actor.id,
    expiresAt: new Date(Date.now() + PAGE_LIFETIME_DAYS * 86_400_000),
  });
  await recordAudit(db, actor, "MONITORING_CHANGED", {
    pullId: request.pullId,
    details: { change: "made a Coverdesk reconnect page for the consumer", monitoringId },
  });
  return { ok: true, pageId, created: true };
}

/**
 * Withdraws the account's open Coverdesk page: a link mailed to the wrong address, or one the
 * consumer says they never asked for, stops working at once (the page then says so), and its
 * session with the service is dropped. A new page can be made after.
 */
export async function revokeReconnectPage(
  db: Db,
  actor: Actor,
  monitoringId: string,
): Promise<CommandResult<{ revoked: number }>> {
  const request = await getReconnectRequest(db, actor, monitoringId);
  if (!request.ok) return request;
  const revoked = await db
    .update(reconnectPages)
    .set({ closedReason: REVOKED, sessionJwt: null })
    .where(
      and(
        eq(reconnectPages.monitoringId, monitoringId),
        isNull(reconnectPages.completedAt),
        isNull(reconnectPages.closedReason),
      ),
    )
    .returning({ id: reconnectPages.id });
  if (revoked.length === 0) return { ok: false, code: "CONFLICT", message: "This account has no open Coverdesk page." };
  await recordAudit(db, actor, "CONSUMER_LINK_REVOKED", {
    pullId: request.pullId,
    details: { kind: "reconnect page", monitoringId },
  });
  return { ok: true, revoked: revoked.length };
}

/** Pages whose session pull `pullId` is: used by ingestion when that login succeeds. */
export async function completeReconnectPages(db: Db, pullId: string): Promise<void> {
  const done = await db
    .update(reconnectPages)
    .set({ completedAt: new Date() })
    .where(and(eq(reconnectPages.sessionPullId, pullId), isNull(reconnectPages.completedAt)))
    .returning({ monitoringId: reconnectPages.monitoringId });
  if (done.length === 0) return;
  // The login may have been on a new pull of the account: the request it answered is over too.
  await db
    .update(monitorings)
    .set({
      reconnectRequestedAt: null,
      reconnectPullId: null,
      reconnectAuthStatus: null,
      reconnectUrl: null,
      reconnectToken: null,
      updatedAt: new Date(),
    })
    .where(
      inArray(
        monitorings.monitoringId,
        done.map((d) => d.monitoringId),
      ),
    );
}
