// GET /api/health — liveness and database reachability, for load balancers and test harnesses
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return Response.json({ ok: true });
  } catch {
    return Response.json({ ok: false, error: "DATABASE_UNAVAILABLE" }, { status: 503 });
  }
}
