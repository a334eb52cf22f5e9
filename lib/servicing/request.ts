import "server-only";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import { servicingRequests, type ServicingRequestRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { canOnPull } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedMessage, ServiceError } from "@/lib/service/errors";
import { requestServicing, servicingActionInputSchema } from "@/lib/service/servicings-api";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, stale, type CommandResult } from "@/lib/core/result";
import { carrierServicing } from "./carrier";
import { buildServicingPayload, servicingTargets, type ServicingFields } from "./payloads";
import { followServicingPull } from "./progress";
import { isSettled } from "./status";
import { newServicingRequestId } from "./link";
import { SERVICING_ACTION_LABELS } from "./words";

// An agent asks the carrier, through the service, to change a WON client's policy. The row is
// written before the service is called, so what the agent typed is never lost: a refusal or an
// outage is kept on it in words, and the panel lists it. The service is asked once (POST
// /servicings is never retried: a second call could ask the carrier twice).

/** How long the consumer's confirm link works. */
export const SERVICING_LINK_DAYS = 14;

const requestInputSchema = z.object({
  pullId: z.uuid({ message: "This form could not be read. Reload the page and try again." }),
  actionType: z.string().trim().min(1, "Choose a change to ask for."),
});

/** A change's own fields, as text; which ones it needs, and their messages, are its payload's (payloads.ts). */
const servicingField = z.string().optional();

/** The request form: the pull and the change (checked first), and the change's fields. */
export const requestServicingInputSchema = requestInputSchema.extend({
  policy: servicingField,
  mortgagee: servicingField,
  name: servicingField,
  address: servicingField,
  loanNumber: servicingField,
  position: servicingField,
  vin: servicingField,
  year: servicingField,
  make: servicingField,
  model: servicingField,
} satisfies Record<keyof ServicingFields, z.ZodType>);

export type RequestServicingInput = { pullId?: string; actionType?: string } & ServicingFields;

/** The service's refusals, for the agent. */
const REFUSALS: Record<string, string> = {
  PULL_TOO_OLD:
    "The service only makes changes from a recent pull of the account, and this one is too old. Refresh the account (or ask the client to link it again), then ask from the new pull.",
  INVALID_INPUT: "The service did not accept the request as sent",
  NOT_FOUND: "The service no longer knows this pull. Ask the client to link the account again.",
  UNAUTHORIZED: "The service refused Coverdesk's credentials. An admin should check the service connection.",
  FORBIDDEN: "The agency's plan with the service does not include servicing.",
  SUBSCRIPTION_INACTIVE: "The agency's subscription with the service is inactive.",
};

/** A refusal or failure of POST /servicings in words, keeping the service's code. */
export function servicingRefusal(error: unknown): string {
  if (error instanceof ServiceError) {
    const limited = rateLimitedMessage(error);
    if (limited) return `${limited} The carrier was not asked.`;
    if (error.status === 0 || error.status >= 500)
      return "The service did not answer, so the carrier was probably not asked. Nothing else was changed: check this list in a minute, then ask again.";
    const words = REFUSALS[error.code] ?? `The service refused the request (${error.code})`;
    const detail = error.code === "INVALID_INPUT" && error.message ? `: ${error.message}` : "";
    return `${words}${detail}${/[.!]$/.test(words + detail) ? "" : "."}`;
  }
  return "Something went wrong while asking the service. Nothing was changed at the carrier; ask again.";
}

/** JSON with its keys in order: jsonb does not keep the order a payload was written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** When a JWT says it expires (its `exp` claim), or null when it is no JWT or says nothing. */
export function jwtExpiresAt(token: string): Date | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}

export async function requestServicingChange(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: RequestServicingInput,
  now = new Date(),
): Promise<CommandResult<{ request: ServicingRequestRow }>> {
  const head = requestInputSchema.safeParse(input);
  if (!head.success) {
    const issue = head.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path.join("."));
  }
  const { pullId, actionType } = head.data;
  const detail = await getViewablePull(db, actor, pullId);
  if (!detail || detail.pull.parent_pull_id || detail.pull.type === "SERVICING") return notFound();
  if (!canOnPull(actor, "servicing:request", detail.workflow))
    return forbidden("This client is another agent's: only they, a manager or an admin can ask for changes.");
  if (detail.workflow.stage !== "WON")
    return invalid("Changes at the carrier are for won clients. Mark the pull won first.", "actionType");

  let carrier;
  try {
    carrier = await carrierServicing(service, {
      providerName: detail.pull.insurance_provider_name,
      providerFriendlyName: detail.pull.insurance_provider_friendly_name,
    });
  } catch {
    return {
      ok: false,
      code: "CONFLICT",
      message:
        "The service could not be asked which changes the carrier supports. Nothing was sent; try again in a minute.",
    };
  }
  if (!(carrier.actions as string[]).includes(actionType)) {
    const label = SERVICING_ACTION_LABELS[actionType as keyof typeof SERVICING_ACTION_LABELS];
    return invalid(
      label
        ? `${carrier.carrierName} does not let the service ${label.toLowerCase()}.`
        : "Choose one of the changes the carrier supports.",
      "actionType",
    );
  }
  const built = buildServicingPayload(actionType, input, servicingTargets(detail.pull), now);
  if (!built.ok) return invalid(built.message, built.field);
  // The client's own check of what it sends (lib/service): a payload it would refuse never gets a row.
  const action = servicingActionInputSchema.safeParse({ type: built.type, payload: built.payload });
  if (!action.success) return invalid("Check the form: the service would not accept these values.");

  // The same change still under way is not asked twice (a double click, two agents at once).
  const open = await db
    .select({ id: servicingRequests.id, status: servicingRequests.status, payload: servicingRequests.payload })
    .from(servicingRequests)
    .where(
      and(
        eq(servicingRequests.pullId, pullId),
        eq(servicingRequests.actionType, built.type),
        isNotNull(servicingRequests.servicingActionId),
      ),
    )
    .orderBy(desc(servicingRequests.requestedAt))
    .limit(20);
  const same = canonical(built.payload);
  if (open.some((r) => !isSettled(r.status) && canonical(r.payload) === same))
    return stale("This change is already under way for this client: see the list below.");

  const id = newServicingRequestId();
  await db.insert(servicingRequests).values({
    id,
    pullId,
    accountKey: detail.accountKey || detail.pull.pull_id,
    actionType: built.type,
    payload: built.payload,
    requestedBy: actor.id,
    requestedByName: actor.name,
    requestedAt: now,
    expiresAt: new Date(now.getTime() + SERVICING_LINK_DAYS * 86_400_000),
  });

  let created;
  try {
    created = await requestServicing(service, {
      pull_id: pullId,
      servicing_actions: [action.data],
    });
  } catch (error) {
    const message = servicingRefusal(error);
    const code = error instanceof ServiceError ? error.code : "ERROR";
    await db
      .update(servicingRequests)
      .set({ error: `${message} (${code})`, updatedAt: new Date() })
      .where(eq(servicingRequests.id, id));
    return { ok: false, code: "CONFLICT", message };
  }

  const servicingActionId = created.servicing_action_ids[0] ?? null;
  // The consumer's answer travels with the pull's JWT: the link works no longer than the JWT does.
  const sessionEnds = jwtExpiresAt(created.pull_jwt);
  const request = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(servicingRequests)
      .set({
        servicingPullId: created.pull_id,
        sessionJwt: created.pull_jwt,
        servicingActionId,
        status: sql`coalesce(${servicingRequests.status}, 'QUEUED')`,
        error: servicingActionId ? null : "The service answered without an action id.",
        ...(sessionEnds && sessionEnds.getTime() < now.getTime() + SERVICING_LINK_DAYS * 86_400_000
          ? { expiresAt: sessionEnds }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(servicingRequests.id, id))
      .returning();
    await recordAudit(tx, actor, "SERVICING_REQUESTED", {
      pullId,
      at: now,
      details: { servicingRequestId: id, actionType: built.type, change: built.change, servicingActionId },
    });
    return row;
  });
  if (!request) throw new Error("the servicing request was not saved");
  // Its webhooks may have been processed before the ids above were stored: catch up from the pull.
  await followServicingPull(db, created.pull_id);
  return { ok: true, request };
}
