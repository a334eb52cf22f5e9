import "server-only";
import type { ServiceConfig } from "@/lib/service/client";
import { getWidget } from "@/lib/service/widgets-api";

// The agency's name on a client summary. Coverdesk has no setting of its own for it (lib/env.ts
// names none): the link the consumer used carries the agency's `company_name` on the service,
// asked once per link with the server's credentials and kept a few minutes. A slow or failing
// service, or a pull with no link, never fails the summary: it then reads "Your agency".

export const FALLBACK_AGENCY_NAME = "Your agency";

const TTL_MS = 10 * 60_000;
const FAILED_TTL_MS = 30_000;
/** The summary waits at most this for the name, once. */
const LOOKUP_TIMEOUT_MS = 2_000;

type Cached = { until: number; name: Promise<string> };
const cache = globalThis as unknown as { __coverdeskAgencyNames?: Map<string, Cached> };
const entries = () => (cache.__coverdeskAgencyNames ??= new Map());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function getAgencyName(
  service: ServiceConfig,
  widgetId: string | null,
  now: number = Date.now(),
): Promise<string> {
  if (!widgetId || !UUID.test(widgetId)) return Promise.resolve(FALLBACK_AGENCY_NAME);
  const key = `${service.baseUrl}|${service.teamId ?? ""}|${widgetId}`;
  const cached = entries().get(key);
  if (cached && cached.until > now) return cached.name;
  const quick: ServiceConfig = {
    ...service,
    timeoutMs: Math.min(service.timeoutMs, LOOKUP_TIMEOUT_MS),
    maxAttempts: 1,
  };
  const name = getWidget(quick, widgetId).then(
    ({ value }) => value.company_name?.trim() || FALLBACK_AGENCY_NAME,
    (error: unknown) => {
      console.warn(
        `[review] agency name unavailable, the summary says "${FALLBACK_AGENCY_NAME}": ${error instanceof Error ? error.message : error}`,
      );
      entries().set(key, { until: now + FAILED_TTL_MS, name: Promise.resolve(FALLBACK_AGENCY_NAME) });
      return FALLBACK_AGENCY_NAME;
    },
  );
  entries().set(key, { until: now + TTL_MS, name });
  return name;
}

/** Forgets every name (tests). */
export function forgetAgencyNames(): void {
  entries().clear();
}
