import { formatCalendarDate, formatInterval } from "@/lib/format";
import { describeLine } from "@/lib/xdates/words";
import { MIN_REFRESH_GAP_DAYS, plannedReasonSchema } from "./refresh-plan";

// Why the next refresh is when it is, in words, for the pull page. Pure: the stored reason is
// parsed here, so a row written by an older version reads as "on the service's schedule".

export function nextRefreshWhy(
  stored: { reason: unknown; error: string | null; interval: string | null },
  locale = "en-US",
): string {
  if (stored.error) return stored.error;
  const parsed = plannedReasonSchema.safeParse(stored.reason);
  const reason = parsed.success ? parsed.data : { kind: "INTERVAL" as const, interval: stored.interval };
  if (reason.kind === "INTERVAL") {
    const every = reason.interval ? `every ${formatInterval(reason.interval)}` : "its own interval";
    return `On the service's schedule (${every}): no verified X-date to time it by.`;
  }
  const line = describeLine(reason.carrier, reason.line);
  const xDate = formatCalendarDate(reason.xDate, locale);
  const why =
    reason.kind === "ON_TIME"
      ? `${reason.leadTimeDays} days before the ${line} X-date (${xDate}), so the carrier's renewal offer is in it.`
      : `The ${line} X-date (${xDate}) is less than ${reason.leadTimeDays} days away and no refresh has seen its renewal offer yet.`;
  if (!reason.heldFrom) return why;
  return `${why} Held from ${formatCalendarDate(reason.heldFrom, locale)}: the service refreshes no sooner than ${MIN_REFRESH_GAP_DAYS} days after the latest pull.`;
}
