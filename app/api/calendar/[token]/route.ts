// GET /api/calendar/<token>.ics — public: a user's X-dates as an iCalendar feed, for Outlook
// and Google Calendar to subscribe to. No session: the secret token in the address is the key
// (stored hashed, revocable, rate-limited in lib/xdates/calendar-feed.ts); any other answers 404.
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { serveCalendarFeed } from "@/lib/xdates/calendar-feed";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  return serveCalendarFeed(await getDb(), String(token ?? ""), clientAddress(request.headers), env().auth.url);
}
