import "server-only";
import type { ServicingRequestRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { env } from "@/lib/env";
import type { PullDetail } from "@/lib/pulls/queries";
import type { ServiceConfig } from "@/lib/service/client";
import type { ServicingActionType } from "@/lib/service/schemas";
import { carrierServicing } from "./carrier";
import { configuredServicingLinkKey, servicingPageUrl } from "./link";
import { possibleActions, servicingTargets, type ServicingTargets } from "./payloads";
import { refreshPendingServicings } from "./refresh";
import { listServicingRequests } from "./queries";
import { isSettled } from "./status";
import { describeServicingChange, sentence, servicingStatusWords, type StatusTone } from "./words";

// The pull page's Servicing panel: the changes the carrier lets the service make, the policies
// they can be asked on, and the requests so far with their progress in words and the consumer's
// confirm link. Requests still under way are asked of the service (briefly) before the page shows.

export type ServicingRequestItem = {
  id: string;
  actionType: string;
  change: string;
  status: { label: string; tone: StatusTone };
  requestedByName: string | null;
  requestedAt: string;
  /** The consumer's page to send, while the consumer has something to do. */
  confirmUrl: string | null;
  /** Until when the confirm link works. */
  expiresAt: string;
  consumerAnswer: string | null;
  /** The SERVICING pull the service made for the request: stored and shown under it, not listed. */
  servicingPullId: string | null;
};

export type ServicingPanel = {
  carrierName: string;
  /** The actions the carrier supports and the pull has something to act on. */
  actions: ServicingActionType[];
  /** The carrier's catalogue could not be read: the form waits; the list still shows. */
  carrierUnavailable: boolean;
  /** The carrier supports none of the changes (or is not in the catalogue). */
  carrierSupportsNone: boolean;
  canRequest: boolean;
  targets: ServicingTargets;
  requests: ServicingRequestItem[];
};

function itemOf(row: ServicingRequestRow, linkOf: (id: string) => string, now: Date): ServicingRequestItem {
  const waitsForConsumer =
    row.servicingActionId !== null &&
    row.consumerAnswer === null &&
    row.linkRevokedAt === null &&
    !isSettled(row.status) &&
    row.expiresAt > now;
  return {
    id: row.id,
    actionType: row.actionType,
    change: sentence(describeServicingChange(row.actionType, row.payload)),
    status: servicingStatusWords({ ...row, expired: row.expiresAt <= now }),
    requestedByName: row.requestedByName,
    requestedAt: row.requestedAt.toISOString(),
    confirmUrl: waitsForConsumer ? linkOf(row.id) : null,
    expiresAt: row.expiresAt.toISOString(),
    consumerAnswer: row.consumerAnswer,
    servicingPullId: row.servicingPullId,
  };
}

/** The panel of a WON top-level pull (null for any other: the page shows no panel). */
export async function getServicingPanel(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  detail: PullDetail,
  rows: ServicingRequestRow[],
  now = new Date(),
): Promise<ServicingPanel | null> {
  const { pull, workflow } = detail;
  if (workflow.stage !== "WON" || pull.parent_pull_id || pull.type === "SERVICING") return null;
  const [carrier, moved] = await Promise.all([
    // Briefly: a page must not hang on the catalogue (matchCarrier keeps it 10 minutes once read).
    carrierServicing(
      { ...service, timeoutMs: Math.min(service.timeoutMs, 2_500), maxAttempts: 1 },
      {
        providerName: pull.insurance_provider_name,
        providerFriendlyName: pull.insurance_provider_friendly_name,
      },
    ).catch(() => null),
    refreshPendingServicings(db, service, rows),
  ]);
  const current = moved ? await listServicingRequests(db, pull.pull_id) : rows;
  const targets = servicingTargets(pull);
  const key = configuredServicingLinkKey();
  const appUrl = env().auth.url;
  return {
    carrierName:
      carrier?.carrierName ?? pull.insurance_provider_friendly_name ?? pull.insurance_provider_name ?? "The carrier",
    actions: carrier ? possibleActions(targets, carrier.actions) : [],
    carrierUnavailable: carrier === null,
    carrierSupportsNone: carrier !== null && carrier.actions.length === 0,
    canRequest: canOnPull(user, "servicing:request", workflow),
    targets,
    requests: current.map((row) => itemOf(row, (id) => servicingPageUrl(appUrl, key, id), now)),
  };
}
