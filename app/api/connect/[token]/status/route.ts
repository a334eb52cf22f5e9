// GET /api/connect/[token]/status — public: a fingerprint of the consumer's reconnect step,
// polled by the open reconnect page so it moves on when the service answers by webhook.
// No session: the token in the address is the key, checked and rate-limited in lib/monitoring.
import { getDb } from "@/lib/database";
import { getConnectPageStatus } from "@/lib/monitoring/consumer-page";
import { clientAddress } from "@/lib/security/client-address";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  const status = await getConnectPageStatus(
    await getDb(),
    (await context.params).token,
    clientAddress(request.headers),
  );
  if (!status.ok) return Response.json({ error: status.error, message: status.message }, { status: status.status });
  return Response.json(
    { version: status.version, step: status.step },
    { headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" } },
  );
}
