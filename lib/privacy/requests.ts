import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { PRIVACY_REQUEST_KINDS, privacyRequests, type PrivacyRequestRow } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, type CommandResult } from "@/lib/core/result";
import { expandConsumerPulls } from "./find-consumer";
import { erasedSubjectsOf, holdErasureLock, recordErasedSubjects } from "./erased-subjects";
import { removePulls, subjectsOfPulls, type RemovedCounts } from "./remove-pulls";
import { anyOnLegalHold } from "./legal-holds";

// A consumer's request of the agency, with the law's clock: 45 days from the day it was
// received to answer it (CCPA and most US state privacy laws). An access request is answered
// with everything held (lib/privacy/export.ts); an erasure removes it all (removePulls), keeps
// keyed hashes so nothing comes back, and leaves one content-free tombstone on the audit trail.

export const RESPONSE_DAYS = 45;
const DAY_MS = 86_400_000;

/** The ISO day `days` after an ISO day (calendar days, UTC). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The day a request received on `receivedOn` must be answered by. */
export function dueDateOf(receivedOn: string): string {
  return addDays(receivedOn, RESPONSE_DAYS);
}

/** Days left until the due day (negative: overdue by that many), counted from `today`. */
export function daysLeft(dueOn: string, today: string): number {
  return Math.round((Date.parse(`${dueOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

export const todayIso = (now = new Date()) => now.toISOString().slice(0, 10);

const isoDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the day as YYYY-MM-DD.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Enter a real day.");

export const openRequestInputSchema = z.object({
  kind: z.enum(PRIVACY_REQUEST_KINDS, "Choose access or erasure."),
  receivedOn: isoDay,
  reference: z
    .string()
    .trim()
    .max(80, "At most 80 characters.")
    .refine((v) => !v.includes("@"), "A reference is the agency's own (a ticket number), not the person's email.")
    .default(""),
  pullIds: z.array(z.uuid()).min(1, "Search for the consumer first: the request needs their pulls.").max(500),
});
export type OpenRequestInput = z.input<typeof openRequestInputSchema>;

export async function openPrivacyRequest(
  db: Db,
  actor: Actor | null,
  input: OpenRequestInput,
  now = new Date(),
): Promise<CommandResult<{ request: PrivacyRequestRow }>> {
  const parsed = openRequestInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Invalid request.", issue?.path.join("."));
  }
  const { kind, receivedOn, reference } = parsed.data;
  if (receivedOn > todayIso(now)) return invalid("The day received cannot be in the future.", "receivedOn");
  return db.transaction(async (tx) => {
    const pullIds = await expandConsumerPulls(tx, parsed.data.pullIds);
    if (pullIds.length === 0) return notFound("That consumer");
    const [request] = await tx
      .insert(privacyRequests)
      .values({ kind, receivedOn, dueOn: dueDateOf(receivedOn), reference, pullIds, openedBy: actor?.id ?? null })
      .returning();
    if (!request) throw new Error("The request was not stored.");
    await recordAudit(tx, actor, "PRIVACY_REQUEST_OPENED", {
      details: { request: request.id, kind, receivedOn, dueOn: request.dueOn, pulls: pullIds.length },
    });
    return { ok: true as const, request };
  });
}

export async function listPrivacyRequests(db: Db): Promise<PrivacyRequestRow[]> {
  return db
    .select()
    .from(privacyRequests)
    .orderBy(sql`${privacyRequests.status} = 'DONE'`, asc(privacyRequests.dueOn), desc(privacyRequests.openedAt))
    .limit(200);
}

export async function getPrivacyRequest(db: Db, id: string): Promise<PrivacyRequestRow | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id));
  return row ?? null;
}

/** The desk's erase button: the request, and the confirmation only its dialog sends. */
export const eraseRequestInputSchema = z.object({
  requestId: z.uuid("Choose a request."),
  confirm: z.literal("erase", "Confirm the erasure in its dialog."),
});

/** The desk's "the service has been told" box. */
export const serviceToldInputSchema = z.object({
  requestId: z.uuid("Choose a request."),
  told: z.literal("on", "Tick the box once the service has been asked and has confirmed."),
});

export type ErasureResult = { requestId: string; pullIds: string[]; counts: RemovedCounts };

/**
 * Erases a consumer: every pull of theirs (and of their accounts) with everything of each, in
 * one transaction; keeps the keyed hashes of their pull ids, accounts and emails (a later sync
 * or webhook is refused); closes the request, noting the pulls the service must still be asked
 * to delete; and writes the tombstone. With no request (the command line), one is opened,
 * received today.
 */
export async function eraseConsumer(
  db: Db,
  actor: Actor | null,
  input: { pullIds: string[]; requestId?: string | null },
  now = new Date(),
): Promise<CommandResult<ErasureResult>> {
  return db.transaction(async (tx) => {
    // No pull of theirs is being stored meanwhile (lib/ingest/store-pull.ts shares this lock).
    await holdErasureLock(tx, "exclusive");
    let request: PrivacyRequestRow | null = null;
    if (input.requestId) {
      request = await getPrivacyRequest(tx, input.requestId);
      if (!request || request.kind !== "ERASURE") return notFound("That erasure request");
      if (request.status === "DONE") return invalid("This consumer has been erased already.");
    }
    const seeds = [...new Set([...input.pullIds, ...(request?.pullIds ?? [])])];
    const pullIds = await expandConsumerPulls(tx, seeds);
    if (pullIds.length === 0) return notFound("That consumer");
    if (await anyOnLegalHold(tx, pullIds))
      return invalid(
        "A pull of this consumer is on legal hold: it must be kept whatever the request. Lift the hold (on the pull's page) once the matter allows, then erase.",
      );
    if (!request) {
      const day = todayIso(now);
      const [opened] = await tx
        .insert(privacyRequests)
        .values({ kind: "ERASURE", receivedOn: day, dueOn: dueDateOf(day), pullIds, openedBy: actor?.id ?? null })
        .returning();
      if (!opened) throw new Error("The request was not stored.");
      request = opened;
    }
    const subjects = await subjectsOfPulls(tx, pullIds);
    const counts = await removePulls(tx, pullIds, { kind: "ERASURE", requestId: request.id });
    await recordErasedSubjects(
      tx,
      erasedSubjectsOf({ pullIds, accounts: subjects.accounts, emails: subjects.emails }),
      request.id,
    );
    await tx
      .update(privacyRequests)
      .set({
        status: "DONE",
        completedAt: now,
        completedBy: actor?.id ?? null,
        erasedCounts: counts,
        pullIds: [],
        servicePullIds: pullIds,
      })
      .where(eq(privacyRequests.id, request.id));
    await recordAudit(tx, actor, "CONSUMER_ERASED", { details: { request: request.id, removed: counts } });
    return { ok: true as const, requestId: request.id, pullIds, counts };
  });
}

/**
 * The service keeps its own copy of every pull, and its API has no call that deletes one
 * (service-notes.md: a pull's only write is archiving it). What the agency must do, in order.
 */
export function serviceStepsOf(pullIds: string[]): string[] {
  const list = pullIds.length > 0 ? pullIds.join(", ") : "(recorded as told)";
  return [
    "Stop the service's monitoring of the account, if it was monitored: on the service's dashboard, or its DELETE /teams/{team}/monitorings/{id}.",
    "Archive each pull at the service (PATCH /teams/{team}/pulls/{id} with is_archived: true), so it leaves the team's lists meanwhile.",
    `Ask the service's support, in writing, to delete these pulls and everything of them under the consumer's request: ${list}. Name the team id and the day the consumer asked.`,
    "Keep the service's answer with the request's reference; tick below once it confirms.",
  ];
}

/** Records that the service has been asked (and has confirmed): the pull ids are then forgotten here too. */
export async function markServiceTold(db: Db, actor: Actor | null, requestId: string, now = new Date()) {
  return db.transaction(async (tx): Promise<CommandResult> => {
    const request = await getPrivacyRequest(tx, requestId);
    if (!request || request.kind !== "ERASURE") return notFound("That erasure request");
    if (request.status !== "DONE") return invalid("Erase the consumer first.");
    if (request.serviceToldAt) return { ok: true };
    await tx
      .update(privacyRequests)
      .set({ serviceToldAt: now, serviceToldBy: actor?.id ?? null, servicePullIds: [] })
      .where(and(eq(privacyRequests.id, requestId), sql`${privacyRequests.serviceToldAt} is null`));
    await recordAudit(tx, actor, "PRIVACY_SERVICE_TOLD", { details: { request: requestId } });
    return { ok: true };
  });
}

/** An access request is answered once its copy has been handed over (its first export). */
export async function completeAccessRequest(db: Db, actor: Actor | null, requestId: string, now = new Date()) {
  await db
    .update(privacyRequests)
    .set({ status: "DONE", completedAt: now, completedBy: actor?.id ?? null })
    .where(
      and(eq(privacyRequests.id, requestId), eq(privacyRequests.kind, "ACCESS"), eq(privacyRequests.status, "OPEN")),
    );
}
