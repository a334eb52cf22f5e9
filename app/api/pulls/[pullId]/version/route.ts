// GET /api/pulls/[pullId]/version — a fingerprint of what the pull page shows (data, login
// state, pipeline, monitoring), polled by an open page so it refreshes itself when it changes.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { queryRows } from "@/db/connect";
import { pulls } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { userAllowedTo } from "@/lib/auth/session";
import { accountHeld } from "@/lib/pulls/visibility";

export const dynamic = "force-dynamic";

const notFound = () => Response.json({ error: "NOT_FOUND" }, { status: 404 });

export async function GET(_request: Request, context: { params: Promise<{ pullId: string }> }) {
  const pullId = z.uuid().safeParse((await context.params).pullId);
  if (!pullId.success) return notFound();
  const user = await userAllowedTo("pulls:view");
  if (!user) return notFound();
  const db = await getDb();
  const [pull] = await db.select({ assigneeId: pulls.assigneeId, accountHeld }).from(pulls).where(eq(pulls.pullId, pullId.data));
  if (!pull || !canOnPull(user, "pulls:view", pull)) return notFound();
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`select md5(concat_ws('|', p.updated_at, p.fetched_at, p.stage, p.assignee_id, p.stage_changed_at,
                 (select max(a.updated_at) from pull_auth_states a where a.pull_id = p.pull_id),
                 (select max(m.updated_at) from monitorings m where m.initial_pull_id = p.pull_id or m.latest_pull_id = p.pull_id
                    or (p.account_identifier is not null and m.account_identifier = p.account_identifier)),
                 (select max(x.at) from audit_events x where x.pull_id = p.pull_id))) as version
        from pulls p where p.pull_id = ${pullId.data}`,
  );
  return Response.json({ version: row?.version ?? "" }, { headers: { "cache-control": "no-store" } });
}
