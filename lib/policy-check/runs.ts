import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/types";
import { policyCheckRuns, type PolicyCheckRunRow } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { ServiceConfig } from "@/lib/service/client";
import { rateLimitedMessage, ServiceError } from "@/lib/service/errors";
import { getPolicyCheckReport, getPolicyCheckSettings, runPolicyCheck } from "@/lib/service/policy-check-api";
import { policyCheckResultsSchema, type PolicyCheckResult, type Pull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, notFound, type CommandFailure, type CommandResult } from "@/lib/core/result";
import { hasAnyRule, settingsInput } from "./rules";

// The service's policy check on a pull (issue: "its results on the pull, per rule, pass or fail,
// with the values; Run the check again; the service's PDF report where the plan allows"). The
// results checked at submission come in the pull's payload; a run on demand is kept in
// policy_check_runs (with who ran it, also in the audit trail) and the newest run is what the
// page shows. The service's plan may lack the feature: it answers 403 FORBIDDEN, said in words.

export const NOT_IN_PLAN =
  "The agency's plan with the service does not include the policy check. Ask the service to add it to run checks and get their reports.";

const SERVICE_WORDS: Record<string, string> = {
  FORBIDDEN: NOT_IN_PLAN,
  NOT_FOUND: "The service no longer has this pull, so it cannot check it. Ask the consumer to link the account again.",
};

/** A refusal or outage of the service in words; nothing was changed here. */
export function policyCheckFailure(error: unknown): CommandFailure {
  if (!(error instanceof ServiceError)) throw error;
  const known = rateLimitedMessage(error) ?? SERVICE_WORDS[error.code] ?? (error.status === 403 ? NOT_IN_PLAN : null);
  if (known) return { ok: false, code: "CONFLICT", message: known };
  return {
    ok: false,
    code: "CONFLICT",
    message:
      error.status === 0 || error.status >= 500
        ? "The service did not answer. Nothing was changed; try again in a few minutes."
        : `The service refused (${error.code}). Nothing was changed.`,
  };
}

export type PolicyCheckView = {
  /** COMPLIANT, NOT_COMPLIANT, REVIEW_REQUIRED, or null/NONE: not checked. */
  status: string | null;
  /** Per-rule results, or an object the service sent in a form we do not know (shown as sent). */
  results: PolicyCheckResult[] | Record<string, unknown> | null;
  /** Where the results come from: the pull as linked, or a run on demand (when, by whom). */
  source: { kind: "pull" } | { kind: "run"; ranAt: Date; ranByName: string | null };
};

/** The newest run on demand of this pull, if any. */
export async function latestPolicyCheckRun(db: Db, pullId: string): Promise<PolicyCheckRunRow | null> {
  const [row] = await db
    .select()
    .from(policyCheckRuns)
    .where(eq(policyCheckRuns.pullId, pullId))
    .orderBy(desc(policyCheckRuns.ranAt), desc(policyCheckRuns.id))
    .limit(1);
  return row ?? null;
}

/** What the page shows: the newest run, else the pull's own results. */
export function policyCheckView(pull: Pull, run: PolicyCheckRunRow | null): PolicyCheckView {
  if (run) {
    const results = policyCheckResultsSchema.safeParse(run.results);
    return {
      status: run.status,
      results: results.success ? results.data : null,
      source: { kind: "run", ranAt: run.ranAt, ranByName: run.ranByName },
    };
  }
  return { status: pull.policy_check_status, results: pull.policy_check_results, source: { kind: "pull" } };
}

/**
 * "Run the check again": the team's current rules (read from the service) run on the pull now;
 * the answer is kept and audited. Nothing is kept when the service refuses.
 */
export async function rerunPolicyCheck(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  pullId: string,
): Promise<CommandResult<{ status: string | null; results: number }>> {
  const detail = await getViewablePull(db, actor, pullId);
  if (!detail || detail.pull.parent_pull_id) return notFound();
  if (!canOnPull(actor, "policy-check:run", detail.workflow))
    return forbidden("This account is another agent's: only they, a manager or an admin can run its policy check.");
  let checked: Pull;
  let settings: ReturnType<typeof settingsInput>;
  try {
    settings = settingsInput((await getPolicyCheckSettings(service)).value);
    if (!hasAnyRule(settings))
      return {
        ok: false,
        code: "CONFLICT",
        message: "The team has no policy-check rules turned on. An admin sets them under Admin › Policy check.",
      };
    checked = (await runPolicyCheck(service, pullId, { policy_check_settings: settings })).value;
  } catch (error) {
    return policyCheckFailure(error);
  }
  const results = checked.policy_check_results;
  const count = Array.isArray(results) ? results.length : results ? Object.keys(results).length : 0;
  await db.transaction(async (tx) => {
    await tx.insert(policyCheckRuns).values({
      pullId,
      status: checked.policy_check_status,
      results: results ?? null,
      settings,
      ranBy: actor.id,
      ranByName: actor.name,
    });
    await recordAudit(tx, actor, "POLICY_CHECK_RUN", {
      pullId,
      details: { status: checked.policy_check_status, results: count },
    });
  });
  return { ok: true, status: checked.policy_check_status, results: count };
}

export type PolicyCheckReport =
  { ok: true; bytes: Buffer } | { ok: false; reason: "not-found" | "not-in-plan" | "failed"; message: string };

/** The service's PDF report of the pull's policy check, for a viewer allowed to download its documents. */
export async function policyCheckReport(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  pullId: string,
): Promise<PolicyCheckReport> {
  const detail = await getViewablePull(db, actor, pullId, "documents:download");
  if (!detail || detail.pull.parent_pull_id) return { ok: false, reason: "not-found", message: notFound().message };
  try {
    const bytes = await getPolicyCheckReport(service, pullId);
    // A download of the pull's data like any document: who read the report is on the trail.
    await recordAudit(db, actor, "DOCUMENT_DOWNLOADED", {
      pullId: detail.pull.pull_id,
      details: { report: "policy-check" },
    });
    return { ok: true, bytes };
  } catch (error) {
    const { message } = policyCheckFailure(error);
    return { ok: false, reason: message === NOT_IN_PLAN ? "not-in-plan" : "failed", message };
  }
}
