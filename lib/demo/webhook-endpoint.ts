import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { webhookEndpoints } from "@/db/schema";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/events";
import { createWebhookEndpoint, signingSecretsOf, webhookUrlPolicy } from "@/lib/webhooks/endpoints";
import { demoReceiverUrl, tellReceiverSecret } from "./sandbox-control";

// The demo agency's outgoing webhooks: one endpoint, every event, pointed at the sandbox's stand-in
// for a Zapier hook, which checks each signature. Registered before the history is written, so
// the admins' webhooks page shows the deliveries the agency's work set off (and a retry or two).
// On a resume the sandbox, started afresh, is told the secret again.

export async function connectDemoWebhookReceiver(db: Db, controlUrl: string, log: (line: string) => void) {
  const url = demoReceiverUrl(controlUrl);
  try {
    const [existing] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.url, url), isNull(webhookEndpoints.deletedAt)))
      .limit(1);
    let secret = existing ? signingSecretsOf(existing, new Date())[0] : undefined;
    if (!existing) {
      const made = await createWebhookEndpoint(
        db,
        { url, events: [...WEBHOOK_EVENTS] },
        { name: "Demo agency (the sandbox's receiver)" },
        webhookUrlPolicy("development"),
      );
      if (!made.ok) throw new Error(made.message);
      secret = made.secret;
      log(`outgoing webhooks go to ${url}`);
    }
    if (secret) await tellReceiverSecret(controlUrl, secret);
  } catch (error) {
    // The demo goes on without it: the webhooks page is then simply empty.
    log(`the demo webhook endpoint was not set up: ${error instanceof Error ? error.message : String(error)}`);
  }
}
