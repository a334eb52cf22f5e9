import "server-only";
import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { monitorings, pulls } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { accountHeld, visibleTo, type ListViewer } from "@/lib/pulls/visibility";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedMessage, ServiceError } from "@/lib/service/errors";
import { getMonitoringReconnectToken } from "@/lib/service/monitorings-api";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { notFound, type CommandResult } from "@/lib/core/result";

// Accounts whose refresh needs the consumer (MONITORING_RECONNECT): the worklist, and a fresh
// hosted reconnect link from the service when the one we hold has expired.

export type ReconnectItem = {
  monitoringId: string;
  pullId: string | null;
  name: string;
  email: string | null;
  authStatus: string | null;
  requestedAt: Date;
  reconnectUrl: string | null;
};

/** The worklist shows this many accounts a page: each row carries two forms, and 200 of them made a 780 kB page. */
export const RECONNECT_PAGE_SIZE = 50;

/** One page of the worklist, newest request first, and how many accounts are on it in all. */
export async function listReconnectWorklist(
  db: Db,
  viewer: ListViewer,
  page = 1,
  pageSize = RECONNECT_PAGE_SIZE,
): Promise<{ items: ReconnectItem[]; total: number }> {
  const pullOf = sql`coalesce(${monitorings.latestPullId}, ${monitorings.initialPullId})`;
  const where = and(isNotNull(monitorings.reconnectRequestedAt), visibleTo(viewer));
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        monitoringId: monitorings.monitoringId,
        pullId: pulls.pullId,
        firstName: pulls.firstName,
        lastName: pulls.lastName,
        email: pulls.email,
        authStatus: monitorings.reconnectAuthStatus,
        requestedAt: monitorings.reconnectRequestedAt,
        reconnectUrl: monitorings.reconnectUrl,
      })
      .from(monitorings)
      .innerJoin(pulls, eq(pulls.pullId, pullOf))
      .where(where)
      // The id breaks ties, so no account falls between two pages.
      .orderBy(desc(monitorings.reconnectRequestedAt), asc(monitorings.monitoringId))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(monitorings).innerJoin(pulls, eq(pulls.pullId, pullOf)).where(where),
  ]);
  const items = rows.map((r) => ({
    monitoringId: r.monitoringId,
    pullId: r.pullId,
    name: [r.firstName, r.lastName].filter(Boolean).join(" ") || r.email || "Unnamed account",
    email: r.email,
    authStatus: r.authStatus,
    requestedAt: r.requestedAt ?? new Date(0),
    reconnectUrl: r.reconnectUrl,
  }));
  return { items, total: counted?.n ?? 0 };
}

/** The monitoring whose consumer is sent a way to reconnect (its link, or a Coverdesk page). */
export const reconnectInputSchema = z.object({ monitoringId: z.string().trim().min(1).max(200) });

/** An open reconnect request the actor may see (it is on their worklist), with its pull. */
export async function getReconnectRequest(
  db: Db,
  actor: Actor,
  monitoringId: string,
): Promise<CommandResult<{ pullId: string }>> {
  const [row] = await db
    .select({ pullId: pulls.pullId, assigneeId: pulls.assigneeId, officeId: pulls.officeId, accountHeld })
    .from(monitorings)
    .innerJoin(pulls, eq(pulls.pullId, sql`coalesce(${monitorings.latestPullId}, ${monitorings.initialPullId})`))
    .where(and(eq(monitorings.monitoringId, monitoringId), isNotNull(monitorings.reconnectRequestedAt)));
  return row && canOnPull(actor, "pulls:view", row)
    ? { ok: true, pullId: row.pullId }
    : notFound("That reconnect request");
}

/** Asks the service for a fresh reconnect link (the old one may have expired) and keeps it. */
export async function renewReconnectLink(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  monitoringId: string,
): Promise<CommandResult<{ reconnectUrl: string | null }>> {
  const row = await getReconnectRequest(db, actor, monitoringId);
  if (!row.ok) return row;
  try {
    const { value } = await getMonitoringReconnectToken(service, monitoringId);
    await db
      .update(monitorings)
      .set({ reconnectUrl: value.reconnect_url, reconnectToken: value.reconnect_token, updatedAt: new Date() })
      .where(eq(monitorings.monitoringId, monitoringId));
    await recordAudit(db, actor, "MONITORING_CHANGED", {
      pullId: row.pullId,
      details: { change: "asked the service for a fresh reconnect link", monitoringId },
    });
    return { ok: true as const, reconnectUrl: value.reconnect_url };
  } catch (error) {
    if (error instanceof ServiceError)
      return {
        ok: false,
        code: "CONFLICT",
        message: rateLimitedMessage(error) ?? `The service could not give a new link (${error.code}).`,
      };
    throw error;
  }
}
