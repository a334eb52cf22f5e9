"use client";

import { useSyncExternalStore } from "react";
import { DASH, formatInstant, formatRelative, localeFromAcceptLanguage } from "@/lib/format";

// An instant as people say it ("3 days ago"), with the exact time on hover. The server knows
// neither the viewer's time zone nor locale settings: its hover text is in UTC (saying so), and
// the browser redraws both in its own zone and locale, from its own clock, once hydrated.

const noSubscription = () => () => {};
const SEPARATOR = "\u0000";

export function RelativeTime({ iso, locale = "en-US" }: { iso: string | null | undefined; locale?: string }) {
  const [relative, exact] = useSyncExternalStore(
    noSubscription,
    () => {
      if (!iso) return DASH;
      const viewer = localeFromAcceptLanguage(navigator.languages.join(","), locale);
      return `${formatRelative(iso, Date.now(), viewer)}${SEPARATOR}${formatInstant(iso, viewer)}`;
    },
    () =>
      iso ? `${formatRelative(iso, Date.now(), locale)}${SEPARATOR}${formatInstant(iso, locale, "UTC")} UTC` : DASH,
  ).split(SEPARATOR);
  if (!iso) return <>{DASH}</>;
  return (
    <time dateTime={iso} title={exact}>
      {relative}
    </time>
  );
}
