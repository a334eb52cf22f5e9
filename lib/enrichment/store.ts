import "server-only";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { auditEvents, enrichmentAnswers, pulls, type EnrichmentAnswerRow } from "@/db/schema";
import { questionKey } from "./question";
import type { EnrichmentKind } from "./words";

// The kept questions and answers of the enrichment look-ups (enrichment_answers). A question is
// claimed before the service is called: the insert … on conflict do nothing on (kind,
// question_key) lets exactly one caller through, whichever instance it runs on; the others find
// the row and reuse its answer, or wait for it. A FAILED question, or one claimed by a caller
// that vanished (ASKING for longer than any call can take), is claimed again by a conditional
// update, which one caller alone wins.

/** Longer than a look-up can take (one attempt, the client's timeout): an ASKING row this old was abandoned. */
export const ABANDONED_AFTER_MS = 5 * 60_000;

export type QuestionToClaim = {
  kind: EnrichmentKind;
  questionKey: string;
  accountKey: string;
  pullId: string;
  subjectKey: string;
  question: Record<string, string>;
  purpose: string | null;
  askedBy: string;
  askedByName: string;
};

export type Claim =
  /** This caller holds the question: it calls the service and settles the row. */
  | { outcome: "claimed"; row: EnrichmentAnswerRow }
  /** Already answered (or known to have no data): nothing to pay. */
  | { outcome: "kept"; row: EnrichmentAnswerRow }
  /** Another caller is asking right now. */
  | { outcome: "busy"; row: EnrichmentAnswerRow };

const sameQuestion = (kind: string, questionKey: string) =>
  and(eq(enrichmentAnswers.kind, kind), eq(enrichmentAnswers.questionKey, questionKey));

async function readQuestion(db: Db, kind: string, questionKey: string): Promise<EnrichmentAnswerRow | null> {
  const [row] = await db.select().from(enrichmentAnswers).where(sameQuestion(kind, questionKey));
  return row ?? null;
}

export async function claimQuestion(db: Db, ask: QuestionToClaim, now: Date = new Date()): Promise<Claim> {
  const values = {
    accountKey: ask.accountKey,
    pullId: ask.pullId,
    subjectKey: ask.subjectKey,
    question: ask.question,
    purpose: ask.purpose,
    askedBy: ask.askedBy,
    askedByName: ask.askedByName,
    // Set here, to the millisecond, so that settling can name this very claim.
    askedAt: now,
  };
  const [inserted] = await db
    .insert(enrichmentAnswers)
    .values({ kind: ask.kind, questionKey: ask.questionKey, status: "ASKING", ...values })
    .onConflictDoNothing({ target: [enrichmentAnswers.kind, enrichmentAnswers.questionKey] })
    .returning();
  if (inserted) return { outcome: "claimed", row: inserted };

  const abandoned = new Date(now.getTime() - ABANDONED_AFTER_MS);
  const [reclaimed] = await db
    .update(enrichmentAnswers)
    .set({ ...values, status: "ASKING", answer: null, error: null, answeredAt: null })
    .where(
      and(
        sameQuestion(ask.kind, ask.questionKey),
        or(
          eq(enrichmentAnswers.status, "FAILED"),
          and(eq(enrichmentAnswers.status, "ASKING"), lt(enrichmentAnswers.askedAt, abandoned)),
        ),
      ),
    )
    .returning();
  if (reclaimed) return { outcome: "claimed", row: reclaimed };

  const existing = await readQuestion(db, ask.kind, ask.questionKey);
  if (!existing) throw new Error("an enrichment question was neither claimed nor found");
  // FAILED here means someone failed between our update and this read: theirs to report, ours to retry later.
  return existing.status === "ASKING" || existing.status === "FAILED"
    ? { outcome: "busy", row: existing }
    : { outcome: "kept", row: existing };
}

/**
 * Writes the outcome of this caller's claim, only while the claim is still theirs (a claim taken
 * over as abandoned belongs to the new caller). Null when it no longer was.
 */
export async function settleQuestion(
  db: Db,
  claimed: EnrichmentAnswerRow,
  outcome: { status: "ANSWERED" | "NO_DATA" | "FAILED"; answer: unknown; error: string | null },
  now: Date = new Date(),
): Promise<EnrichmentAnswerRow | null> {
  const [saved] = await db
    .update(enrichmentAnswers)
    .set({ status: outcome.status, answer: outcome.answer ?? null, error: outcome.error, answeredAt: now })
    .where(
      and(
        eq(enrichmentAnswers.id, claimed.id),
        eq(enrichmentAnswers.status, "ASKING"),
        eq(enrichmentAnswers.askedAt, claimed.askedAt),
      ),
    )
    .returning();
  return saved ?? null;
}

/** Waits (briefly) for another caller's look-up of the same question to end; the row as it then is. */
export async function awaitQuestion(
  db: Db,
  row: EnrichmentAnswerRow,
  waitMs: number,
  pollMs = 150,
): Promise<EnrichmentAnswerRow> {
  const until = Date.now() + waitMs;
  let current = row;
  while (current.status === "ASKING" && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    current = (await readQuestion(db, row.kind, row.questionKey)) ?? current;
  }
  return current;
}

/**
 * The look-ups kept for the account a pull belongs to (its identifier, else the pull id, as
 * when they were asked), newest first: what the pull page reads beside the pull.
 */
export async function getAccountEnrichment(db: Db, pullId: string): Promise<EnrichmentAnswerRow[]> {
  return db
    .select()
    .from(enrichmentAnswers)
    .where(
      or(
        eq(enrichmentAnswers.pullId, pullId),
        eq(
          enrichmentAnswers.accountKey,
          sql`(select coalesce(nullif(${pulls.accountIdentifier}, ''), ${pulls.pullId}::text) from ${pulls} where ${pulls.pullId} = ${pullId})`,
        ),
      ),
    )
    .orderBy(desc(enrichmentAnswers.askedAt))
    .limit(200);
}

/**
 * The kept answers someone reused for the account a pull belongs to, asking with a purpose (the
 * ENRICHMENT_REUSED entries on the trail): the person look-ups of another account its page may show.
 */
export async function listReusedAnswerIds(db: Db, pullId: string): Promise<Set<number>> {
  const rows = await db
    .select({ answerId: sql<string>`${auditEvents.details} ->> 'answerId'` })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, "ENRICHMENT_REUSED"),
        sql`${auditEvents.details} ->> 'accountKey' = (select coalesce(nullif(${pulls.accountIdentifier}, ''), ${pulls.pullId}::text) from ${pulls} where ${pulls.pullId} = ${pullId})`,
      ),
    );
  return new Set(rows.map((r) => Number(r.answerId)).filter(Number.isSafeInteger));
}

/** The same questions asked for another account (the same home on a second linked account). */
export async function listQuestions(
  db: Db,
  questions: Array<{ kind: EnrichmentKind; questionKey: string }>,
): Promise<EnrichmentAnswerRow[]> {
  if (questions.length === 0) return [];
  return db
    .select()
    .from(enrichmentAnswers)
    .where(
      and(
        inArray(enrichmentAnswers.kind, [...new Set(questions.map((q) => q.kind))]),
        inArray(
          enrichmentAnswers.questionKey,
          questions.map((q) => q.questionKey),
        ),
      ),
    );
}

/**
 * Question keys written before they were keyed hashes (a plain sha256 of the question, which a
 * list of birth dates could reverse) become blind indexes, from the question kept on the row, so
 * an answer asked before is still found and never paid for twice. Idempotent; how many changed.
 */
export async function rekeyEnrichmentQuestions(db: Db): Promise<number> {
  const rows = await db
    .select({
      id: enrichmentAnswers.id,
      kind: enrichmentAnswers.kind,
      key: enrichmentAnswers.questionKey,
      question: enrichmentAnswers.question,
    })
    .from(enrichmentAnswers);
  let changed = 0;
  for (const row of rows) {
    const question = row.question && typeof row.question === "object" ? (row.question as Record<string, string>) : {};
    const key = questionKey(row.kind as EnrichmentKind, question);
    if (key === row.key) continue;
    await db.update(enrichmentAnswers).set({ questionKey: key }).where(eq(enrichmentAnswers.id, row.id));
    changed++;
  }
  return changed;
}
