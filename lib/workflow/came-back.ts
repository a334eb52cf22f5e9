import "server-only";
import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/types";
import { dealReturns, pulls, users } from "@/db/schema";
import { viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { visibleTo } from "@/lib/pulls/visibility";

// What came back, as the agent reads it: the "Came back" list on My pulls and the banner on a
// pull's page. A return is open while its pull is WORKING and it has not been won; a pull that
// came back more than once shows its latest. Who sees which is the pull-access rule itself
// (lib/pulls/visibility.ts): an agent their own and the queue's, managers and admins every one.

export type CameBackRow = {
  id: number;
  pullId: string;
  kind: string;
  headline: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  assigneeName: string | null;
  xDate: string | null;
  carrierLabel: string | null;
  policyType: string | null;
  lostCategory: string | null;
  lostToCarrier: string | null;
  lostReason: string | null;
  premiumThenCents: number | null;
  renewalPremiumCents: number | null;
  returnedAt: Date;
};

const later = alias(dealReturns, "later");

/** Open: its pull is being worked again, it is not won yet, and no later return of the pull replaced it. */
const open: SQL = and(
  isNull(dealReturns.wonAt),
  eq(pulls.stage, "WORKING"),
  isNull(pulls.parentPullId),
  sql`not exists (select 1 from ${dealReturns} ${later} where ${later.pullId} = ${dealReturns.pullId} and ${later.id} > ${dealReturns.id})`,
) as SQL;

const columns = {
  id: dealReturns.id,
  pullId: dealReturns.pullId,
  kind: dealReturns.kind,
  headline: dealReturns.headline,
  firstName: pulls.firstName,
  lastName: pulls.lastName,
  email: pulls.email,
  assigneeName: users.name,
  xDate: dealReturns.xDate,
  carrierLabel: dealReturns.carrierLabel,
  policyType: dealReturns.policyType,
  lostCategory: dealReturns.lostCategory,
  lostToCarrier: dealReturns.lostToCarrier,
  lostReason: dealReturns.lostReason,
  premiumThenCents: dealReturns.premiumThenCents,
  renewalPremiumCents: dealReturns.renewalPremiumCents,
  returnedAt: dealReturns.returnedAt,
};

/** The open returns the user may see, the soonest X-date first. */
export async function listCameBack(db: Db, user: Pick<Actor, "id" | "role">, limit = 50): Promise<CameBackRow[]> {
  return db
    .select(columns)
    .from(dealReturns)
    .innerJoin(pulls, eq(pulls.pullId, dealReturns.pullId))
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(and(open, visibleTo(viewScope(user))))
    .orderBy(sql`${dealReturns.xDate} asc nulls last`, desc(dealReturns.returnedAt), asc(dealReturns.id))
    .limit(limit);
}

/** The pull's open return, for the banner on its page; the page checks the viewer's right to the pull. */
export async function getOpenDealReturn(db: Db, pullId: string): Promise<CameBackRow | null> {
  const [row] = await db
    .select(columns)
    .from(dealReturns)
    .innerJoin(pulls, eq(pulls.pullId, dealReturns.pullId))
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(and(eq(dealReturns.pullId, pullId), open))
    .limit(1);
  return row ?? null;
}
