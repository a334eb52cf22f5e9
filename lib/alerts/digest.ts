import "server-only";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { alerts, digestRuns, pulls, users, type AlertRow } from "@/db/schema";
import type { Env } from "@/lib/env";
import { sendMail, type Mail } from "./mailer";
import { getAgencyRules, type AgencyRules } from "@/lib/rules/agency-rules";

// The daily digest: each person's alerts not yet mailed, in one message (text and HTML), with a
// link to each account. An alert goes to whoever holds its pull now (after a claim or a
// reassignment, the new agent), not to whom it was raised for; an unassigned account's alerts go
// to whoever the rules name (managers by default). Each alert is mailed once: the rows are claimed
// with FOR UPDATE SKIP LOCKED and marked in the same transaction as the sending, so two instances
// never mail the same alert, and a mail server that refuses leaves them for the next run.

export type Recipient = { id: string; email: string; name: string };
type DigestAlert = Pick<AlertRow, "id" | "pullId" | "holderName" | "headline" | "details" | "assigneeId">;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** One person's digest. Pure, so its words (and the escaping of hostile names) are tested alone. */
export function composeDigest(recipient: Recipient, items: DigestAlert[], appUrl: string, day: string): Mail {
  const link = (pullId: string) => `${appUrl.replace(/\/$/, "")}/pulls/${encodeURIComponent(pullId)}`;
  const count = items.length === 1 ? "1 alert" : `${items.length} alerts`;
  const first = items[0]?.headline ?? "";
  const subject = `Coverdesk: ${count} for ${day}${first ? `: ${first.length > 70 ? `${first.slice(0, 69)}…` : first}` : ""}`;
  const text = [
    `${recipient.name}, ${count} since your last digest:`,
    "",
    ...items.flatMap((a) => [
      `* ${a.headline}${a.holderName ? ` (${a.holderName})` : ""}`,
      ...a.details.slice(0, 6).map((d) => `    - ${d}`),
      `    ${link(a.pullId)}`,
      "",
    ]),
    `Mark them done or snooze them in your inbox: ${appUrl.replace(/\/$/, "")}/alerts`,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(recipient.name)}, ${count} since your last digest:</p><ul>`,
    ...items.map(
      (a) =>
        `<li><a href="${escapeHtml(link(a.pullId))}">${escapeHtml(a.headline)}</a>${a.holderName ? ` (${escapeHtml(a.holderName)})` : ""}` +
        (a.details.length > 0
          ? `<ul>${a.details
              .slice(0, 6)
              .map((d) => `<li>${escapeHtml(d)}</li>`)
              .join("")}</ul>`
          : "") +
        "</li>",
    ),
    `</ul><p><a href="${escapeHtml(`${appUrl.replace(/\/$/, "")}/alerts`)}">Open your inbox</a> to mark them done or snooze them.</p>`,
  ].join("");
  return { to: recipient.email, subject, text, html };
}

async function queueRecipients(db: Db, rules: AgencyRules): Promise<Recipient[]> {
  if (rules.queueAlertsTo === "NOBODY") return [];
  return db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.isActive, true), eq(users.role, rules.queueAlertsTo === "ADMINS" ? "ADMIN" : "MANAGER")))
    .orderBy(asc(users.email));
}

export type DigestResult = { mails: number; alerts: number };

/** Sends every pending digest now (the schedule, `npm run digest -- --now`, or an admin's button). */
export async function sendDigests(db: Db, config: Pick<Env, "mail" | "auth">, now = new Date()): Promise<DigestResult> {
  const rules = await getAgencyRules(db);
  const day = now.toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const pending = await tx
      .select({
        id: alerts.id,
        pullId: alerts.pullId,
        holderName: alerts.holderName,
        headline: alerts.headline,
        details: alerts.details,
        assigneeId: pulls.assigneeId,
      })
      .from(alerts)
      .leftJoin(pulls, eq(pulls.pullId, alerts.pullId))
      .where(
        and(
          isNull(alerts.mailedAt),
          or(eq(alerts.status, "OPEN"), and(eq(alerts.status, "SNOOZED"), lte(alerts.snoozedUntil, now))),
        ),
      )
      .orderBy(asc(alerts.createdAt), asc(alerts.id))
      .for("update", { of: alerts, skipLocked: true });
    if (pending.length === 0) return { mails: 0, alerts: 0 };
    const owners = [...new Set(pending.map((a) => a.assigneeId).filter((id): id is string => id !== null))];
    const people =
      owners.length > 0
        ? await tx
            .select({ id: users.id, email: users.email, name: users.name, active: users.isActive })
            .from(users)
            .where(inArray(users.id, owners))
        : [];
    const queue = await queueRecipients(tx, rules);
    const byRecipient = new Map<string, { recipient: Recipient; items: DigestAlert[] }>();
    const add = (recipient: Recipient, alert: DigestAlert) => {
      const entry = byRecipient.get(recipient.id) ?? { recipient, items: [] };
      entry.items.push(alert);
      byRecipient.set(recipient.id, entry);
    };
    for (const alert of pending) {
      const owner = people.find((p) => p.id === alert.assigneeId);
      // An alert of someone who has left goes to the queue's recipients, like an unassigned one.
      if (owner?.active) add(owner, alert);
      else for (const recipient of queue) add(recipient, alert);
    }
    let mails = 0;
    for (const { recipient, items } of byRecipient.values()) {
      await sendMail(composeDigest(recipient, items, config.auth.url, day), config.mail);
      mails++;
    }
    await tx
      .update(alerts)
      .set({ mailedAt: now })
      .where(
        inArray(
          alerts.id,
          pending.map((a) => a.id),
        ),
      );
    return { mails, alerts: pending.length };
  });
}

/**
 * Today's digest, once across every instance: the first past the digest hour records the day
 * and sends; the others find the day taken. `force` sends even before the hour or a second time
 * in a day (only what has not been mailed yet goes out).
 */
export async function runDailyDigest(
  db: Db,
  config: Pick<Env, "mail" | "auth">,
  {
    now = new Date(),
    force = false,
    requestedBy = null,
  }: { now?: Date; force?: boolean; requestedBy?: string | null } = {},
): Promise<(DigestResult & { sent: true }) | { sent: false; why: "before-hour" | "already-sent" }> {
  const day = now.toISOString().slice(0, 10);
  if (!force) {
    const rules = await getAgencyRules(db);
    if (now.getUTCHours() < rules.digestHour) return { sent: false, why: "before-hour" };
    const claimed = await db
      .insert(digestRuns)
      .values({ day, requestedBy })
      .onConflictDoNothing()
      .returning({ day: digestRuns.day });
    if (claimed.length === 0) return { sent: false, why: "already-sent" };
  } else {
    await db
      .insert(digestRuns)
      .values({ day, requestedBy })
      .onConflictDoUpdate({ target: digestRuns.day, set: { startedAt: now, requestedBy } });
  }
  let result: DigestResult;
  try {
    result = await sendDigests(db, config, now);
  } catch (error) {
    // The mail server refused: give the day back, so the next check tries again.
    await db.delete(digestRuns).where(and(eq(digestRuns.day, day), isNull(digestRuns.finishedAt)));
    throw error;
  }
  await db
    .update(digestRuns)
    .set({ mails: sql`coalesce(${digestRuns.mails}, 0) + ${result.mails}`, finishedAt: new Date() })
    .where(eq(digestRuns.day, day));
  return { sent: true, ...result };
}
