// GET /api/health — liveness and database reachability, for load balancers and test harnesses
import { databaseReachable } from "@/lib/database";

export const dynamic = "force-dynamic";

export async function GET() {
  return (await databaseReachable())
    ? Response.json({ ok: true })
    : Response.json({ ok: false, error: "DATABASE_UNAVAILABLE" }, { status: 503 });
}
