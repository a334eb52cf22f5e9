import "server-only";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { privacyRequests, pulls } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import { addDays, openPrivacyRequest } from "@/lib/privacy/requests";

// The demo's consumer request desk: one client asked for a copy of their data twelve days before
// the end of the history, so /admin/privacy shows an open access request with its clock running
// (33 days left). Through the real command, dated; run again, it finds a request and adds none.

export async function openDemoAccessRequest(db: Db, { until, admin }: { until: Date; admin: Actor }): Promise<number> {
  const [already] = await db.select({ id: privacyRequests.id }).from(privacyRequests).limit(1);
  if (already) return 0;
  const [pull] = await db
    .select({ pullId: pulls.pullId })
    .from(pulls)
    .where(and(eq(pulls.status, "SUCCESS"), isNotNull(pulls.email), isNull(pulls.parentPullId), eq(pulls.listed, true)))
    .orderBy(desc(pulls.serviceCreatedAt))
    .limit(1);
  if (!pull) return 0;
  const day = until.toISOString().slice(0, 10);
  const opened = await openPrivacyRequest(
    db,
    admin,
    { kind: "ACCESS", receivedOn: addDays(day, -12), reference: "DEMO-1", pullIds: [pull.pullId] },
    until,
  );
  return opened.ok ? 1 : 0;
}
