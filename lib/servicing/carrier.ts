import "server-only";
import { matchCarrier } from "@/lib/monitoring/reconnect-carrier";
import type { ServiceConfig } from "@/lib/service/client";
import { SERVICING_ACTION_TYPES, type ServicingActionType } from "@/lib/service/schemas";

// Which changes the pull's carrier lets the service make: its `servicingActions` in the service's
// carrier catalogue (GET /carriers, public, read at most every 10 minutes per process by
// matchCarrier). The pull names its carrier by id and by name; the catalogue is matched on both.

export type CarrierServicing = {
  /** The carrier as the catalogue names it, else as the pull does. */
  carrierName: string;
  /** Known action types only, in our order. */
  actions: ServicingActionType[];
  /** False when the pull's carrier is not in the catalogue. */
  known: boolean;
};

/** After a failed read, pages do not wait on the catalogue again for this long. */
const FAILURE_TTL_MS = 30_000;
const failedAt = new Map<string, number>();

/** Throws the service's error when the catalogue cannot be read: the caller says so in words. */
export async function carrierServicing(
  service: ServiceConfig,
  pull: { providerName: string | null; providerFriendlyName: string | null },
): Promise<CarrierServicing> {
  const names = [pull.providerName, pull.providerFriendlyName].filter((n): n is string => Boolean(n?.trim()));
  const failed = failedAt.get(service.baseUrl);
  if (failed !== undefined && Date.now() - failed < FAILURE_TTL_MS)
    throw new Error("the service's carrier catalogue could not be read a moment ago");
  const carrier = await matchCarrier(service, names).catch((error: unknown) => {
    failedAt.set(service.baseUrl, Date.now());
    throw error;
  });
  failedAt.delete(service.baseUrl);
  const listed = new Set(carrier?.servicingActions ?? []);
  return {
    carrierName: carrier?.name ?? pull.providerFriendlyName ?? pull.providerName ?? "The carrier",
    actions: SERVICING_ACTION_TYPES.filter((type) => listed.has(type)),
    known: carrier !== null,
  };
}
