import "server-only";
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { consumerIndex, pulls, servicingRequests } from "@/db/schema";
import { blindIndex, type IndexKind } from "@/lib/security/blind-index";

// Finding a consumer on the request desk: by what they give us (an email, a phone, a name, a
// date of birth), matched against the pulls' blind index (lib/privacy/consumer-index.ts), so a
// date of birth sealed inside a payload is still found. Several fields narrow the search (a
// pull must match each one given); the person is then every pull of the accounts found, with
// the service's child and servicing pulls of them.

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const consumerSearchSchema = z
  .object({
    email: optionalText(254).refine((v) => v === undefined || v.includes("@"), "Enter an email address."),
    phone: optionalText(40).refine(
      (v) => v === undefined || v.replace(/\D/g, "").length >= 7,
      "Enter a phone number (at least 7 digits).",
    ),
    name: optionalText(200),
    birthDate: optionalText(10).refine(
      (v) => v === undefined || /^\d{4}-\d{2}-\d{2}$/.test(v) || /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(v),
      "Enter a date as YYYY-MM-DD or MM/DD/YYYY.",
    ),
  })
  .refine((v) => v.email || v.phone || v.name || v.birthDate, {
    message: "Enter an email, a phone, a name or a date of birth.",
    path: ["email"],
  });
export type ConsumerSearch = { email?: string; phone?: string; name?: string; birthDate?: string };

export type ConsumerPull = {
  pullId: string;
  name: string;
  status: string;
  type: string | null;
  carrier: string | null;
  accountIdentifier: string | null;
  serviceCreatedAt: Date | null;
  parentPullId: string | null;
};

function criteriaOf(search: ConsumerSearch): { kind: IndexKind; hash: string }[] {
  const pairs: [IndexKind, string | undefined][] = [
    ["email", search.email],
    ["phone", search.phone],
    ["name", search.name],
    ["birth-date", search.birthDate],
  ];
  return pairs.flatMap(([kind, value]) => {
    const hash = blindIndex(kind, value);
    return hash ? [{ kind, hash }] : [];
  });
}

/** The pulls whose index matches every field given. */
export async function findMatchingPullIds(db: Db, search: ConsumerSearch): Promise<string[]> {
  const criteria = criteriaOf(search);
  if (criteria.length === 0) return [];
  const rows = await db
    .select({ pullId: consumerIndex.pullId })
    .from(consumerIndex)
    .where(or(...criteria.map((c) => and(eq(consumerIndex.kind, c.kind), eq(consumerIndex.hash, c.hash)))))
    .groupBy(consumerIndex.pullId)
    .having(sql`count(distinct ${consumerIndex.kind}) = ${criteria.length}`)
    .limit(500);
  return rows.map((r) => r.pullId);
}

/**
 * Every pull of the person these pulls belong to: the pulls of their accounts, the pulls the
 * service made under them (parent_pull_id) and the SERVICING pulls of their requests.
 */
export async function expandConsumerPulls(db: Db, seeds: string[]): Promise<string[]> {
  const ids = new Set(seeds);
  for (let round = 0; round < 3 && ids.size > 0; round++) {
    const before = ids.size;
    const list = [...ids];
    const accounts = (
      await db
        .selectDistinct({ account: pulls.accountIdentifier })
        .from(pulls)
        .where(and(inArray(pulls.pullId, list), sql`${pulls.accountIdentifier} is not null`))
    ).flatMap((r) => (r.account ? [r.account] : []));
    const related = await db
      .select({ id: pulls.pullId })
      .from(pulls)
      .where(
        or(
          inArray(pulls.parentPullId, list),
          accounts.length > 0 ? inArray(pulls.accountIdentifier, accounts) : undefined,
        ),
      );
    for (const r of related) ids.add(r.id);
    const servicing = await db
      .select({ id: servicingRequests.servicingPullId })
      .from(servicingRequests)
      .where(inArray(servicingRequests.pullId, list));
    for (const s of servicing) if (s.id) ids.add(s.id);
    if (ids.size === before) break;
  }
  // Only pulls still stored (a servicing request may name a pull never fetched).
  if (ids.size === 0) return [];
  const stored = await db
    .select({ id: pulls.pullId })
    .from(pulls)
    .where(inArray(pulls.pullId, [...ids]));
  return stored.map((r) => r.id);
}

/** The pulls of these ids, as the desk lists them. */
export async function listConsumerPulls(db: Db, pullIds: string[]): Promise<ConsumerPull[]> {
  if (pullIds.length === 0) return [];
  return db
    .select({
      pullId: pulls.pullId,
      name: pulls.sortName,
      status: pulls.status,
      type: pulls.type,
      carrier: sql<string | null>`coalesce(${pulls.providerFriendlyName}, ${pulls.providerName})`,
      accountIdentifier: pulls.accountIdentifier,
      serviceCreatedAt: pulls.serviceCreatedAt,
      parentPullId: pulls.parentPullId,
    })
    .from(pulls)
    .where(inArray(pulls.pullId, pullIds))
    .orderBy(desc(pulls.serviceCreatedAt), pulls.pullId);
}

/** Search, then the whole person: what the desk and `npm run privacy` both start from. */
export async function findConsumer(db: Db, search: ConsumerSearch): Promise<ConsumerPull[]> {
  return listConsumerPulls(db, await expandConsumerPulls(db, await findMatchingPullIds(db, search)));
}
