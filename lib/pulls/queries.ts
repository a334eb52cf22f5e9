import "server-only";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import { parsePull, type PayloadProblem, type Pull } from "@/lib/service/schemas";

export type PullListRow = {
  pullId: string;
  sortName: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  providerName: string | null;
  providerFriendlyName: string | null;
  status: string;
  policyTypes: string[];
  totalPremiumCents: number | null;
  serviceCreatedAt: Date | null;
};

export const PULL_PAGE_SIZE = 50;

// Child pulls (parent_pull_id set) are the service's internal work: never listed.
const topLevel = and(isNull(pulls.parentPullId), eq(pulls.isArchived, false));

export async function listPulls(db: Db, params: { page: number; pageSize?: number }): Promise<{ rows: PullListRow[]; total: number }> {
  const pageSize = params.pageSize ?? PULL_PAGE_SIZE;
  const [rows, totals] = await Promise.all([
    db
      .select({
        pullId: pulls.pullId,
        sortName: pulls.sortName,
        firstName: pulls.firstName,
        lastName: pulls.lastName,
        email: pulls.email,
        providerName: pulls.providerName,
        providerFriendlyName: pulls.providerFriendlyName,
        status: pulls.status,
        policyTypes: pulls.policyTypes,
        totalPremiumCents: pulls.totalPremiumCents,
        serviceCreatedAt: pulls.serviceCreatedAt,
      })
      .from(pulls)
      .where(topLevel)
      .orderBy(desc(pulls.serviceCreatedAt), pulls.pullId)
      .limit(pageSize)
      .offset((params.page - 1) * pageSize),
    db.select({ value: count() }).from(pulls).where(topLevel),
  ]);
  return { rows, total: totals[0]?.value ?? 0 };
}

export type PullDetail = { pull: Pull; problems: PayloadProblem[]; fetchedAt: Date };

export async function getPullDetail(db: Db, pullId: string): Promise<PullDetail | null> {
  const rows = await db
    .select({ raw: pulls.raw, fetchedAt: pulls.fetchedAt })
    .from(pulls)
    .where(eq(pulls.pullId, pullId))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // The stored payload is the raw one; parsing again applies today's schema to old data.
  const parsed = parsePull(row.raw);
  if (!parsed.ok) return null;
  return { pull: parsed.pull, problems: parsed.problems, fetchedAt: row.fetchedAt };
}
