import "server-only";
import { desc, eq } from "drizzle-orm";
import { servicingRequests, type ServicingRequestRow } from "@/db/schema";
import type { Db } from "@/db/types";

/** A pull's servicing requests, newest first: read by the pull page's loader beside the pull. */
export async function listServicingRequests(db: Db, pullId: string): Promise<ServicingRequestRow[]> {
  return db
    .select()
    .from(servicingRequests)
    .where(eq(servicingRequests.pullId, pullId))
    .orderBy(desc(servicingRequests.requestedAt))
    .limit(50);
}

/** The client's pull a SERVICING pull was made for (the request that names it), or null. */
export async function getServicedPull(db: Db, servicingPullId: string): Promise<string | null> {
  const [row] = await db
    .select({ pullId: servicingRequests.pullId })
    .from(servicingRequests)
    .where(eq(servicingRequests.servicingPullId, servicingPullId))
    .limit(1);
  return row?.pullId ?? null;
}
