// GET /api/connect/[token]/status — public: a fingerprint of the consumer's reconnect step,
// polled by the open reconnect page so it moves on when the service answers by webhook.
import { getDb } from "@/lib/database";
import { readReconnectPage } from "@/lib/monitoring/reconnect-page";
import { guardReconnectPage } from "@/lib/monitoring/reconnect-page-guard";
import { configuredReconnectPageKey } from "@/lib/monitoring/reconnect-page-key";
import { clientAddress } from "@/lib/security/client-address";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  const db = await getDb();
  const guard = await guardReconnectPage(db, configuredReconnectPageKey(), (await context.params).token, clientAddress(request.headers), "view");
  if (!guard.ok) return Response.json({ error: guard.status === 429 ? "RATE_LIMITED" : "NOT_FOUND", message: guard.message }, { status: guard.status });
  const view = await readReconnectPage(db, guard.pageId);
  if (!view) return Response.json({ error: "NOT_FOUND", message: "This link is not valid." }, { status: 404 });
  return Response.json({ version: view.version, step: view.step.kind }, { headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}
