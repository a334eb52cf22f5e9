import { use } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { DASH, formatCalendarDate } from "@/lib/format";
import { viewerLocale } from "./viewer-locale";

// Dates on the detail page. Policy terms, claims and documents carry calendar dates (a
// midnight in the carrier's zone), shown on the day written in the viewer's locale; the
// moment a consumer linked the account is an instant, shown as how long ago, exact on hover.
// Both read the locale with `use` rather than as async components: the request's one promise
// (viewer-locale.ts) is settled after the first date, and the others render in place, where an
// async component made each date a separate task and row of the page's payload.

export function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  const locale = use(viewerLocale());
  return <time dateTime={value}>{formatCalendarDate(value, locale)}</time>;
}

export function Instant({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  return <RelativeTime iso={value} locale={use(viewerLocale())} />;
}
