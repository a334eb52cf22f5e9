import "server-only";
import { EVENT_STATUSES } from "@/db/schema";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { env } from "@/lib/env";
import { rateLimitedUntil } from "@/lib/service/health";
import { checksWebhookSignatures } from "@/lib/service/webhook-signing-secrets";
import { firstParam, type SearchParams } from "@/lib/url/search-params";
import {
  countInboxByStatus,
  INBOX_PAGE_SIZE,
  listInboxEvents,
  parseInboxFilter,
  listInboxEventTypes,
} from "@/lib/ingest/inbox";
import { latestSyncRunView } from "@/lib/ingest/sync-view";

/**
 * The Events page: the inbox with its filters (from the URL), counts by status, the latest sync,
 * whether the service is rate-limiting this instance (and until when), and what the viewer may do.
 */
export async function loadEventsPage(db: Db, user: Actor, params: SearchParams) {
  const { filter, ignored } = parseInboxFilter(params);
  // A malformed pull id is dropped from the filter; the page says so rather than silently show everything.
  const badPull = ignored.includes("pull") ? (firstParam(params, "pull") ?? null) : null;
  const [{ rows, total }, counts, types, run] = await Promise.all([
    listInboxEvents(db, filter),
    countInboxByStatus(db),
    listInboxEventTypes(db),
    latestSyncRunView(db),
  ]);
  const limitedUntil = rateLimitedUntil();
  return {
    filter,
    badPull,
    rows,
    total,
    pageCount: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)),
    /** The filters the pagination keeps. */
    query: { status: filter.status, type: filter.type, pull: filter.pull },
    statuses: EVENT_STATUSES,
    counts,
    types,
    run,
    // Every pending event waits for the limit: the worker asks the service nothing until then.
    rateLimited: limitedUntil ? { until: limitedUntil.toISOString(), waiting: counts.PENDING } : null,
    canRetry: can(user, "events:retry"),
    canSync: can(user, "sync:run"),
    // Production always checks signatures; where they are not checked, the page says so.
    unsigned: !checksWebhookSignatures(env()),
  };
}
