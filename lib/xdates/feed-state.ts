import type { FormState } from "@/lib/core/form-state";

// What the X-dates page knows of the user's calendar feed, and what its forms answer. Plain
// data, for the page's components.

export type CalendarFeedState = { on: false } | { on: true; createdAt: Date; lastReadAt: Date | null };

/** What the Renew form shows: the new address, once (only its hash is kept). */
export type FeedFormState = FormState | { status: "done"; message: string; feedUrl: string };
