import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import ical from "ical-generator";
import type { Db } from "@/db/types";
import { calendarFeeds, users } from "@/db/schema";
import { formatCents } from "@/lib/format";
import { addressBucket } from "@/lib/security/client-address";
import { hitRateLimit, type RateLimit } from "@/lib/security/rate-limit";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { addDays, isoDay } from "./derive";
import type { CalendarFeedState } from "./feed-state";
import { listFeedXDates, windowOf, type FeedRow } from "./queries";
import { describeLine, personName } from "./words";

// A user's X-dates as an iCalendar feed that Outlook and Google Calendar subscribe to. They
// fetch it without a session, so its address carries a secret: 32 random bytes, base64url. Only
// the SHA-256 of the token is stored (a copy of the database opens no feed), so the address is
// shown once, when it is made; Renew makes a new one (the old stops working), Turn off deletes
// it. Looked up by its hash: a unique index, no comparison of secrets in our code.

/** The feed's events reach this far ahead. */
export const FEED_DAYS = 366;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const hashFeedToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The feed's address under the app's public URL. */
export function feedUrl(appUrl: string, token: string): string {
  return new URL(`/api/calendar/${token}.ics`, appUrl).toString();
}

export type { CalendarFeedState, FeedFormState } from "./feed-state";

export async function getCalendarFeedState(db: Db, userId: string): Promise<CalendarFeedState> {
  const [row] = await db
    .select({ createdAt: calendarFeeds.createdAt, lastReadAt: calendarFeeds.lastReadAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId));
  return row ? { on: true, createdAt: row.createdAt, lastReadAt: row.lastReadAt } : { on: false };
}

/** A new token for the actor's feed (the old one, if any, stops working at once). Answers the token, never stored. */
export async function renewCalendarFeed(db: Db, actor: Actor): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashFeedToken(token);
  await db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ userId: calendarFeeds.userId })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, actor.id));
    await tx
      .insert(calendarFeeds)
      .values({ userId: actor.id, tokenHash })
      .onConflictDoUpdate({
        target: calendarFeeds.userId,
        set: { tokenHash, createdAt: sql`now()`, lastReadAt: null },
      });
    await recordAudit(tx, actor, "CALENDAR_FEED_RENEWED", {
      subjectUserId: actor.id,
      details: { replaced: Boolean(previous) },
    });
  });
  return token;
}

/** Turns the actor's feed off: its address answers 404 from now on. */
export async function turnOffCalendarFeed(db: Db, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(calendarFeeds)
      .where(eq(calendarFeeds.userId, actor.id))
      .returning({ userId: calendarFeeds.userId });
    if (deleted.length === 0) return false;
    await recordAudit(tx, actor, "CALENDAR_FEED_TURNED_OFF", { subjectUserId: actor.id });
    return true;
  });
}

/** The active user a token opens the feed of, or null (unknown, revoked, malformed, or a deactivated user). */
export async function feedOwnerOf(db: Db, token: string): Promise<Actor | null> {
  if (!TOKEN.test(token)) return null;
  const [row] = await db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(and(eq(calendarFeeds.tokenHash, hashFeedToken(token)), eq(users.isActive, true)));
  if (!row) return null;
  // When a calendar last read it: shown beside the feed, so a forgotten subscription is noticed.
  await db
    .update(calendarFeeds)
    .set({ lastReadAt: sql`now()` })
    .where(
      and(
        eq(calendarFeeds.userId, row.id),
        sql`(${calendarFeeds.lastReadAt} is null or ${calendarFeeds.lastReadAt} < now() - interval '5 minutes')`,
      ),
    );
  return row;
}

/** "X-date: Jane Doe — Progressive auto, $1,204/yr" */
export function eventSummary(row: FeedRow): string {
  const premium = row.annualPremiumCents === null ? "premium unknown" : `${wholeDollars(row.annualPremiumCents)}/yr`;
  return `X-date: ${personName(row)} — ${describeLine(row.carrierLabel, row.policyType)}, ${premium}`;
}

const wholeDollars = (cents: number) => formatCents(Math.round(cents / 100) * 100).replace(/\.00$/, "");

// The calendar library escapes the text of SUMMARY, DESCRIPTION and URL (backslash, comma,
// semicolon, line breaks) but writes UID and the calendar's name as given, so a policy id or a
// user name holding a line break would start properties or events of its own in every
// subscriber's calendar. Every string from the service or a user is therefore cleaned here:
// control characters become a space (the library's escaping then covers the rest), the name is
// escaped as iCalendar text, and the UID is a hash of the policy's key, never its text.

/** Control characters (line breaks included) as one space, so no value reaches past its line. */
export const icsLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();

/** An iCalendar TEXT value for a property the library writes as given (RFC 5545 3.3.11). */
const icsText = (text: string): string => icsLine(text).replace(/[\\;,]/g, (c) => `\\${c}`);

/** Stable per policy of the account's pull, whatever characters its id holds. */
export function eventUid(pullId: string, policyId: string, host: string): string {
  const key = createHash("sha256").update(`${pullId}\u0000${policyId}`).digest("hex").slice(0, 32);
  return `xdate-${key}@${host}`;
}

/** The feed itself: one all-day event per X-date of the owner's pulls in the coming year. */
export async function calendarFeedIcs(
  db: Db,
  owner: { id: string; name: string },
  appUrl: string,
  today: string = isoDay(),
): Promise<string> {
  return feedIcsOf(await listFeedXDates(db, owner.id, windowOf(today, FEED_DAYS)), owner, appUrl);
}

function feedIcsOf(rows: FeedRow[], owner: { id: string; name: string }, appUrl: string): string {
  const host = new URL(appUrl).host;
  const calendar = ical({
    name: `Coverdesk X-dates — ${icsText(owner.name)}`,
    description: "Policies of your accounts coming up for renewal (Coverdesk).",
    prodId: { company: "Coverdesk", product: "X-dates", language: "EN" },
    ttl: 60 * 60 * 6,
  });
  for (const row of rows) {
    const start = new Date(`${row.xDate}T00:00:00Z`);
    const pullUrl = new URL(`/pulls/${row.pullId}`, appUrl).toString();
    calendar.createEvent({
      // Stable per policy of the account's pull: a refresh of the feed updates the event, never duplicates it.
      id: eventUid(row.pullId, row.policyId, host),
      start,
      end: new Date(`${addDays(row.xDate, 1)}T00:00:00Z`),
      allDay: true,
      summary: icsLine(eventSummary(row)),
      description: [
        row.note,
        row.carrierPolicyNumber ? `Policy number: ${row.carrierPolicyNumber}` : null,
        `Open in Coverdesk: ${pullUrl}`,
      ]
        .filter((line): line is string => Boolean(line))
        .map(icsLine)
        .join("\n"),
      url: pullUrl,
    });
  }
  return calendar.toString();
}

export const CALENDAR_FEED_LIMITS = {
  /** Tokens that open no feed, from one address: guessing is hopeless, and kept that way. */
  badTokensPerAddress: { limit: 60, windowSeconds: 15 * 60 },
  /** Reads of one feed: calendar apps poll every few hours; a loop is stopped. */
  readsPerFeed: { limit: 120, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimit>;

/** Nothing said about why: an unknown, revoked or malformed token all read the same. */
const notFound = () => new Response("Not found", { status: 404, headers: { "cache-control": "no-store" } });
const tooMany = (seconds: number) =>
  new Response("Too many requests", { status: 429, headers: { "retry-after": String(seconds) } });

/** GET /api/calendar/<token>.ics without a session: the feed of the token's owner, or 404. */
export async function serveCalendarFeed(
  db: Db,
  segment: string,
  address: string,
  appUrl: string,
  today: string = isoDay(),
): Promise<Response> {
  const token = segment.endsWith(".ics") ? segment.slice(0, -4) : "";
  const owner = token ? await feedOwnerOf(db, token) : null;
  if (!owner) {
    const bad = await hitRateLimit(
      db,
      `calendar-feed:bad-token:${addressBucket(address)}`,
      CALENDAR_FEED_LIMITS.badTokensPerAddress,
    );
    return bad.allowed ? notFound() : tooMany(bad.retryAfterSeconds);
  }
  const reads = await hitRateLimit(db, `calendar-feed:reads:${owner.id}`, CALENDAR_FEED_LIMITS.readsPerFeed);
  if (!reads.allowed) return tooMany(reads.retryAfterSeconds);
  const rows = await listFeedXDates(db, owner.id, windowOf(today, FEED_DAYS));
  // Clients' names and policies left the app without a session: on the trail, under the token's
  // owner (whose credential the address is), with the address that read it.
  await recordAudit(db, { ...owner, address }, "CALENDAR_FEED_READ", {
    subjectUserId: owner.id,
    pullIds: [...new Set(rows.map((row) => row.pullId))],
    details: { address, events: rows.length },
  });
  return new Response(feedIcsOf(rows, owner, appUrl), {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'inline; filename="coverdesk-xdates.ics"',
      // Personal data: no shared cache may keep it; the address is the secret, never sent on.
      "cache-control": "private, max-age=900",
      "referrer-policy": "no-referrer",
      "x-robots-tag": "noindex",
    },
  });
}
