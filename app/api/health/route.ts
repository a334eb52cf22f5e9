// GET /api/health — liveness and database reachability, for load balancers and test harnesses
import { getDb, pingDatabase } from "@/lib/database";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const db = await getDb();
    await pingDatabase(db);
    return Response.json({ ok: true });
  } catch {
    return Response.json({ ok: false, error: "DATABASE_UNAVAILABLE" }, { status: 503 });
  }
}
