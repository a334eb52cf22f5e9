import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { webhookDeliveries } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, type CommandResult } from "@/lib/core/result";
import { deleteWebhookEndpoint, resendWebhookDelivery } from "./endpoints";

// The admins' webhooks page's commands: send a delivery again now, delete an endpoint. Both audited.

export const resendDeliveryInputSchema = z.object({
  id: z.string().regex(/^msg_[A-Za-z0-9_-]{1,64}$/, "Choose a delivery."),
});

export async function resendDelivery(
  db: Db,
  input: z.input<typeof resendDeliveryInputSchema> | Record<string, unknown>,
  actor: Actor,
  now: Date = new Date(),
): Promise<CommandResult<{ id: string }>> {
  const parsed = resendDeliveryInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Choose a delivery.", "id");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, parsed.data.id));
    if (!row || !(await resendWebhookDelivery(tx, parsed.data.id, now))) return notFound("That delivery");
    await recordAudit(tx, actor, "WEBHOOK_DELIVERY_RESENT", {
      details: { messageId: parsed.data.id, endpointId: row.endpointId },
    });
    return { ok: true as const, id: parsed.data.id };
  });
}

export const deleteEndpointInputSchema = z.object({ id: z.uuid("Choose an endpoint.") });

export async function deleteEndpointAsAdmin(
  db: Db,
  input: z.input<typeof deleteEndpointInputSchema> | Record<string, unknown>,
  actor: Actor,
): Promise<CommandResult<{ id: string }>> {
  const parsed = deleteEndpointInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Choose an endpoint.", "id");
  if (!(await deleteWebhookEndpoint(db, parsed.data.id))) return notFound("That endpoint");
  await recordAudit(db, actor, "WEBHOOK_ENDPOINT_DELETED", { details: { endpointId: parsed.data.id } });
  return { ok: true as const, id: parsed.data.id };
}
