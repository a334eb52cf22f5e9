import { RelativeTime } from "@/components/ui/relative-time";
import { DASH, formatCalendarDate } from "@/lib/format";
import { viewerLocale } from "./viewer-locale";

// Dates on the detail page. Policy terms, claims and documents carry calendar dates (a
// midnight in the carrier's zone), shown on the day written in the viewer's locale; the
// moment a consumer linked the account is an instant, shown as how long ago, exact on hover.

export async function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  const locale = await viewerLocale();
  return <time dateTime={value}>{formatCalendarDate(value, locale)}</time>;
}

export async function Instant({ value }: { value: string | null | undefined }) {
  if (!value) return <>{DASH}</>;
  return <RelativeTime iso={value} locale={await viewerLocale()} />;
}
