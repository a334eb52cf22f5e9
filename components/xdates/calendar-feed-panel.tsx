"use client";

import { useState } from "react";
import { CopyLink } from "@/components/monitoring/reconnect-actions";
import { ActionForm } from "@/components/ui/action-form";
import { formatCalendarDate } from "@/lib/format";
import type { CalendarFeedState, FeedFormState } from "@/lib/xdates/feed-state";
import type { FormAction } from "@/lib/core/form-state";
import { Card } from "@/components/ui/card";

// The user's own calendar feed: turn it on (or renew its address), copy the address, turn it
// off. Only a fingerprint of the address is kept, so it is shown once, right after it is made;
// renewing makes a new one and the old one stops working. The actions come from the page.

const dayOf = (value: Date | string) => formatCalendarDate(new Date(value).toISOString().slice(0, 10));

export function CalendarFeedPanel({
  feed,
  seesAll,
  renew,
  turnOff,
}: {
  feed: CalendarFeedState;
  seesAll: boolean;
  renew: (previous: FeedFormState, formData: FormData) => Promise<FeedFormState>;
  turnOff: FormAction;
}) {
  const [made, setMade] = useState<string | null>(null);
  // The page is re-rendered with each answer: once turned off, the address shown before is gone.
  const url = feed.on ? made : null;
  return (
    <Card aria-labelledby="calendar-feed-title" className="space-y-3" data-testid="calendar-feed">
      <h2 id="calendar-feed-title" className="text-lg font-semibold text-slate-900">
        Calendar feed
      </h2>
      <p className="text-sm text-slate-700">
        Your X-dates for the coming year in Outlook or Google Calendar, one all-day event each, kept up to date by the
        calendar app.{" "}
        {seesAll
          ? "The feed holds the accounts assigned to you, not the whole agency's."
          : "The feed holds the accounts assigned to you (not the unassigned queue)."}
      </p>
      {url ? (
        <div className="space-y-2 rounded-md bg-emerald-50 p-3" data-testid="calendar-feed-url">
          <p className="text-sm text-slate-800">
            Copy this address now: it is shown only once. Anyone who has it can read these X-dates.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 rounded bg-white px-2 py-1 text-xs break-all">{url}</code>
            <CopyLink url={url} />
          </div>
          <p className="text-xs text-slate-700">
            Outlook: Add calendar → Subscribe from web, paste the address. Google Calendar: Other calendars → + → From
            URL, paste the address.
          </p>
        </div>
      ) : feed.on ? (
        <p className="text-sm text-slate-700" data-testid="calendar-feed-status">
          Your feed is on since {dayOf(feed.createdAt)};{" "}
          {feed.lastReadAt ? `a calendar last read it on ${dayOf(feed.lastReadAt)}` : "no calendar has read it yet"}.
          Its address was shown when it was made. To subscribe another calendar, renew it: the old address stops
          working.
        </p>
      ) : (
        <p className="text-sm text-slate-700" data-testid="calendar-feed-status">
          Your feed is off.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <ActionForm
          action={renew}
          onAnswer={(answer) => setMade(answer.status === "done" && "feedUrl" in answer ? answer.feedUrl : null)}
          inline
          submitVariant="secondary"
          submitLabel={feed.on ? "Renew address" : "Turn on"}
          pendingLabel="Making…"
        />
        {feed.on ? (
          <ActionForm
            action={turnOff}
            inline
            submitVariant="secondary"
            submitLabel="Turn off"
            pendingLabel="Turning off…"
          />
        ) : null}
      </div>
    </Card>
  );
}
