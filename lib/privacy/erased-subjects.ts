import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/types";
import { erasedSubjects } from "@/db/schema";
import { blindIndex } from "@/lib/security/blind-index";

// What stays of an erased consumer: keyed hashes of their pull ids, accounts and emails, so a
// later sync, a webhook delivered again or a refresh of the account is refused instead of
// bringing them back. The hashes are HMACs under the index key (COVERDESK_INDEX_KEY): a copy of
// the database cannot be asked "was this person a client?".

export type ErasedKind = "pull" | "account" | "email";
export type ErasedSubject = { kind: ErasedKind; hash: string };

/** The advisory lock an erasure holds alone and every store of a pull shares (any number at once). */
const ERASURE_LOCK = 7_331_034;

/**
 * Taken at the start of a transaction that erases (exclusive) or stores a pull (shared): a
 * store that began before an erasure committed would otherwise not see its hashes yet, find the
 * pull gone, and insert it again. Held until the transaction ends.
 */
export async function holdErasureLock(db: Db, mode: "shared" | "exclusive"): Promise<void> {
  await db.execute(
    mode === "shared"
      ? sql`select pg_advisory_xact_lock_shared(${ERASURE_LOCK})`
      : sql`select pg_advisory_xact_lock(${ERASURE_LOCK})`,
  );
}

/** The keyed hash a subject is kept (and looked up) by. */
export function erasedHashOf(kind: ErasedKind, value: string | null | undefined): string | null {
  if (!value) return null;
  // A pull id is hashed as an account-like identifier under its own prefix.
  return kind === "pull" ? blindIndex("account", `pull:${value}`) : blindIndex(kind, value);
}

export type SubjectValues = { pullIds?: string[]; accounts?: (string | null)[]; emails?: (string | null)[] };

export function erasedSubjectsOf(values: SubjectValues): ErasedSubject[] {
  const out = new Map<string, ErasedSubject>();
  const add = (kind: ErasedKind, value: string | null | undefined) => {
    const hash = erasedHashOf(kind, value);
    if (hash) out.set(`${kind}:${hash}`, { kind, hash });
  };
  for (const id of values.pullIds ?? []) add("pull", id);
  for (const account of values.accounts ?? []) add("account", account);
  for (const email of values.emails ?? []) add("email", email);
  return [...out.values()];
}

/** Keeps the hashes of what an erasure removed (inside its transaction). */
export async function recordErasedSubjects(db: Db, subjects: ErasedSubject[], requestId: string | null): Promise<void> {
  if (subjects.length === 0) return;
  await db
    .insert(erasedSubjects)
    .values(subjects.map((s) => ({ ...s, requestId })))
    .onConflictDoNothing();
}

/**
 * Whether anything named here was erased. A match is counted on its row (refusals, when), which
 * is the whole record of the refusal: nothing of what arrived is kept.
 */
export async function refuseIfErased(db: Db, values: SubjectValues): Promise<boolean> {
  const subjects = erasedSubjectsOf(values);
  if (subjects.length === 0) return false;
  const matched = await db
    .update(erasedSubjects)
    .set({ refusals: sql`${erasedSubjects.refusals} + 1`, lastRefusedAt: new Date() })
    .where(erasedSubjectsMatch(subjects))
    .returning({ kind: erasedSubjects.kind });
  return matched.length > 0;
}

/**
 * The rows of erased_subjects that name any of `subjects`, for a caller that counts the refusal
 * inside a statement of its own (the webhook receiver: one statement per delivery).
 */
export function erasedSubjectsMatch(subjects: ErasedSubject[]): SQL {
  if (subjects.length === 0) return sql`false`;
  return (
    or(
      ...groupByKind(subjects).map(([kind, hashes]) =>
        and(eq(erasedSubjects.kind, kind), inArray(erasedSubjects.hash, hashes)),
      ),
    ) ?? sql`false`
  );
}

function groupByKind(subjects: ErasedSubject[]): [ErasedKind, string[]][] {
  const groups = new Map<ErasedKind, string[]>();
  for (const s of subjects) groups.set(s.kind, [...(groups.get(s.kind) ?? []), s.hash]);
  return [...groups.entries()];
}

/** How many subjects are kept as erased, and how many deliveries or pulls they have refused. */
export async function countErasedSubjects(db: Db): Promise<{ subjects: number; refusals: number }> {
  const [row] = await db
    .select({
      subjects: sql<number>`count(*)::int`,
      refusals: sql<number>`coalesce(sum(${erasedSubjects.refusals}), 0)::int`,
    })
    .from(erasedSubjects);
  return { subjects: row?.subjects ?? 0, refusals: row?.refusals ?? 0 };
}
