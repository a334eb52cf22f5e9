"use client";

import { useSyncExternalStore } from "react";
import { formatInstant, localeFromAcceptLanguage } from "@/lib/format";

// The server does not know the viewer's time zone: it renders the instant in UTC (saying so),
// and the browser replaces it with its own zone and locale once hydrated.

const noSubscription = () => () => {};

export function LocalInstant({ iso, serverLocale }: { iso: string; serverLocale: string }) {
  const text = useSyncExternalStore(
    noSubscription,
    () => formatInstant(iso, localeFromAcceptLanguage(navigator.languages.join(","), serverLocale)),
    () => `${formatInstant(iso, serverLocale, "UTC")} UTC`,
  );
  return <time dateTime={iso}>{text}</time>;
}
