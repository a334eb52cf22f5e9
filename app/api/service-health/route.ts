// GET /api/service-health — whether the data-link service answered this server's last call, polled by the signed-in layout's banner
import { getSessionUser } from "@/lib/auth/session";
import { isServiceUnreachable, readServiceHealth } from "@/lib/service/health";

export const dynamic = "force-dynamic";

export async function GET() {
  // Signed-in users only; what failed and why stays in the server's log.
  if (!(await getSessionUser())) return Response.json({ error: "UNAUTHORIZED" }, { status: 401 });
  const health = readServiceHealth();
  return Response.json({ unreachable: isServiceUnreachable(health), lastFailureAt: health.lastFailureAt?.toISOString() ?? null }, { headers: { "cache-control": "no-store" } });
}
