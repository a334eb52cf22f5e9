import "server-only";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, type CommandResult } from "@/lib/core/result";
import { runDailyDigest } from "./digest";

// An admin's Send now (and what `npm run digest -- --now` calls): today's digests at once,
// whatever the hour, audited. Only alerts not mailed yet go out, so pressing twice sends nothing twice.

export async function sendDigestsNow(db: Db, actor: Actor): Promise<CommandResult<{ mails: number; alerts: number }>> {
  if (!can(actor, "rules:manage")) return forbidden("Only an admin can send the digests.");
  try {
    const result = await runDailyDigest(db, env(), { force: true, requestedBy: actor.id });
    const sent = result.sent ? { mails: result.mails, alerts: result.alerts } : { mails: 0, alerts: 0 };
    await recordAudit(db, actor, "DIGEST_SENT", { details: sent });
    return { ok: true, ...sent };
  } catch (error) {
    console.error("[digest] could not send", error);
    return {
      ok: false,
      code: "CONFLICT",
      message: "The mail server did not take the digests. Nothing was marked as sent; try again later.",
    };
  }
}
