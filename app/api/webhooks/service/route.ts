// POST /api/webhooks/service — receives service events into the inbox (the worker fetches the pulls)
// Public: the service calls it, and the webhook signature protects it (lib/ingest/receive-webhook.ts).
import { answerWebhookRequest } from "@/lib/ingest/webhook-request";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return answerWebhookRequest(request);
}
