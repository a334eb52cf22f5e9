import type { Metadata } from "next";
import { CalendarFeedPanel } from "@/components/xdates/calendar-feed-panel";
import { XDatesView } from "@/components/xdates/xdates-view";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { withReadDb } from "@/lib/database";
import { loadXDatesPage } from "@/lib/loaders/xdates";
import { renewCalendarFeedAction, turnOffCalendarFeedAction } from "./actions";

export const metadata: Metadata = { title: "X-dates" };

export default async function XDatesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params] = await Promise.all([requirePermission("xdates:view"), searchParams]);
  // Read from a replica when one has replayed this user's last write (lib/replicas/).
  const data = await withReadDb((db) => loadXDatesPage(db, user, params));
  return (
    <XDatesView
      data={data}
      userId={user.id}
      feedPanel={
        can(user, "calendar-feed:manage") ? (
          <CalendarFeedPanel
            feed={data.feed}
            seesAll={data.seesAll}
            renew={renewCalendarFeedAction}
            turnOff={turnOffCalendarFeedAction}
          />
        ) : null
      }
    />
  );
}
