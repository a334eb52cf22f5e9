"use client";

import { useSyncExternalStore } from "react";
import { DASH, formatInstant, formatRelative, localeFromAcceptLanguage } from "@/lib/format";

// An instant as people say it ("3 days ago"), with the exact time on hover. The server knows
// neither the viewer's time zone nor the moment the page is read: it renders the exact time in
// UTC (saying so), and the browser redraws it as a relative time, with the exact time in its own
// zone and locale on hover, once hydrated.

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
    // The server's text must be what the browser computes for it while hydrating, to the
    // letter: "how long ago" depends on the clock it is read by, so the server says the exact
    // time instead, and the browser's own render then says it as "3 days ago".
    () => {
      if (!iso) return DASH;
      const exact = `${formatInstant(iso, locale, "UTC")} UTC`;
      return `${exact}${SEPARATOR}${exact}`;
    },
  ).split(SEPARATOR);
  if (!iso) return <>{DASH}</>;
  return (
    <time dateTime={iso} title={exact}>
      {relative}
    </time>
  );
}
