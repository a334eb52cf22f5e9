import { DASH, formatCalendarDate } from "@/lib/format";
import { LocalInstant } from "./local-instant";
import { viewerLocale } from "./viewer-locale";

// Dates on the detail page. Policy terms, claims and documents carry calendar dates (a
// midnight in the carrier's zone), shown on the day written in the viewer's locale; the
// moment a consumer linked the account is an instant, shown in the viewer's own time zone.

export async function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  const locale = await viewerLocale();
  return <time dateTime={value}>{formatCalendarDate(value, locale)}</time>;
}

export async function Instant({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  return <LocalInstant iso={value} serverLocale={await viewerLocale()} />;
}
