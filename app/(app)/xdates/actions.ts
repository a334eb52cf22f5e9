"use server";

import { revalidatePath } from "next/cache";
import { formAction, noInput } from "@/lib/auth/action-guard";
import { env } from "@/lib/env";
import type { FormState } from "@/lib/core/form-state";
import { feedUrl, renewCalendarFeed, turnOffCalendarFeed, type FeedFormState } from "@/lib/xdates/calendar-feed";

// One's own calendar feed: each user may renew or turn off their own, never anyone else's
// (the commands take the actor's id, nothing from the form). Both go on the audit trail.

export const renewCalendarFeedAction = formAction<typeof noInput, FeedFormState>(
  "calendar-feed:manage",
  noInput,
  async ({ user, db }) => {
    const token = await renewCalendarFeed(db, user);
    revalidatePath("/xdates");
    return {
      status: "done",
      message: "Your calendar feed has a new address. Any address made before it no longer works.",
      feedUrl: feedUrl(env().auth.url, token),
    };
  },
);

export const turnOffCalendarFeedAction = formAction(
  "calendar-feed:manage",
  noInput,
  async ({ user, db }): Promise<FormState> => {
    const turnedOff = await turnOffCalendarFeed(db, user);
    revalidatePath("/xdates");
    return {
      status: "done",
      message: turnedOff
        ? "Your calendar feed is off: calendars subscribed to it get nothing more."
        : "Your calendar feed was already off.",
    };
  },
);
