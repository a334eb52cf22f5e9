import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, policyCheckRuns } from "@/db/schema";
import type { ServiceConfig } from "@/lib/service/client";
import { getPullDetail } from "@/lib/pulls/queries";
import { assignPulls } from "@/lib/workflow/assignment";
import type { Sandbox } from "@/sandbox/server";
import { controlSandbox, linkStoredAccount, startServiceSandbox } from "@/test/service-sandbox";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { setFaults } from "@/test/sandbox-faults";
import { createStaff } from "@/test/workflow-fixture";
import { latestPolicyCheckRun, NOT_IN_PLAN, policyCheckReport, policyCheckView, rerunPolicyCheck } from "./runs";
import { loadPolicyCheckRulesPage } from "@/lib/loaders/policy-check-rules";
import { savePolicyCheckRules } from "./admin";

// The service's policy check through Coverdesk, against the sandbox over HTTP: the admin's
// rules read from and saved to the service (audited), "Run the check again" kept and audited,
// the service's PDF report, and the plan that lacks the feature said in words, nothing kept.

const TEAM = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let staff: Awaited<ReturnType<typeof createStaff>>;
let pullId = "";

const runsOf = (id: string) => database.db.select().from(policyCheckRuns).where(eq(policyCheckRuns.pullId, id));
const auditOf = (action: "POLICY_CHECK_RUN" | "POLICY_CHECK_RULES_CHANGED") =>
  database.db.select().from(auditEvents).where(eq(auditEvents.action, action));

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  ({ sandbox, service } = await startServiceSandbox("policy-check", { teamId: TEAM, seed: 5, pullCount: 2 }));
  pullId = await linkStoredAccount(database.db, sandbox, service, "user_good");
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

describe("the service's policy check", () => {
  it("asks for rules before running a check when the team has none", async () => {
    const result = await rerunPolicyCheck(database.db, service, staff.agent, pullId);
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/no policy-check rules turned on/) });
    expect(await runsOf(pullId)).toHaveLength(0);
  });

  it("reads the team's rules from the service and saves an admin's change there, audited", async () => {
    const before = await loadPolicyCheckRulesPage(service);
    expect(before).toMatchObject({ ok: true, form: { NO_COLLISION_COVERAGE: "", MAX_COLLISION_DEDUCTIBLE_CENTS: "" } });

    const refused = await savePolicyCheckRules(database.db, service, staff.manager, { NO_COLLISION_COVERAGE: "on" });
    expect(refused).toMatchObject({ ok: false, code: "FORBIDDEN" });
    const bad = await savePolicyCheckRules(database.db, service, staff.admin, {
      MAX_COLLISION_DEDUCTIBLE_CENTS: "lots",
    });
    expect(bad).toMatchObject({ ok: false, field: "MAX_COLLISION_DEDUCTIBLE_CENTS" });
    expect(await auditOf("POLICY_CHECK_RULES_CHANGED")).toHaveLength(0);

    const saved = await savePolicyCheckRules(database.db, service, staff.admin, {
      NO_COLLISION_COVERAGE: "on",
      MIN_BODILY_INJURY_COVERAGE_PER_PERSON: "1,000,000",
      MIN_BODILY_INJURY_COVERAGE_PER_ACCIDENT: "2,000,000",
      REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: "on",
    });
    expect(saved).toEqual({ ok: true });
    const after = await loadPolicyCheckRulesPage(service);
    expect(after).toMatchObject({
      ok: true,
      form: {
        NO_COLLISION_COVERAGE: "on",
        MIN_BODILY_INJURY_COVERAGE_PER_PERSON: "1000000",
        REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: "on",
      },
    });
    const [entry] = await auditOf("POLICY_CHECK_RULES_CHANGED");
    expect(entry?.actorId).toBe(staff.admin.id);
    expect(entry?.details).toMatchObject({ rules: { vehicle: { NO_COLLISION_COVERAGE: true } } });
  });

  it("runs the check again with those rules, keeps the results and shows them over the pull's own", async () => {
    const result = await rerunPolicyCheck(database.db, service, staff.agent, pullId);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    // A million per person is above any limit the sandbox's carriers write: the check fails.
    expect(result.status).toBe("NOT_COMPLIANT");
    expect(result.results).toBeGreaterThan(0);
    const [run] = await runsOf(pullId);
    expect(run).toMatchObject({ status: "NOT_COMPLIANT", ranBy: staff.agent.id, ranByName: staff.agent.name });
    expect(run?.settings).toMatchObject({ vehicle: { NO_COLLISION_COVERAGE: true } });

    const detail = await getPullDetail(database.db, pullId);
    if (!detail) throw new Error("the pull is stored");
    const view = policyCheckView(detail.pull, await latestPolicyCheckRun(database.db, pullId));
    expect(view.source).toMatchObject({ kind: "run", ranByName: staff.agent.name });
    expect(view.status).toBe("NOT_COMPLIANT");
    const rules = Array.isArray(view.results) ? view.results.map((r) => r.check) : [];
    expect(rules).toContain("MIN_BODILY_INJURY_COVERAGE");
    expect(rules).not.toContain("NO_COMPREHENSIVE_COVERAGE");
    const failed = Array.isArray(view.results)
      ? view.results.find((r) => r.check === "MIN_BODILY_INJURY_COVERAGE" && r.result === "FAILED")
      : undefined;
    expect(failed?.message, "the values behind the outcome").toMatch(/\$1,000,000/);
    const [entry] = await auditOf("POLICY_CHECK_RUN");
    expect(entry).toMatchObject({ pullId, actorId: staff.agent.id, details: { status: "NOT_COMPLIANT" } });
  });

  it("lets no one run it on a pull they may not work", async () => {
    const assigned = await assignPulls(database.db, staff.admin, {
      pullIds: [pullId],
      assigneeId: staff.otherAgent.id,
    });
    expect(assigned.ok).toBe(true);
    const result = await rerunPolicyCheck(database.db, service, staff.agent, pullId);
    expect(result).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await rerunPolicyCheck(database.db, service, staff.agent, "not-a-uuid")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await runsOf(pullId)).toHaveLength(1);
    const report = await policyCheckReport(database.db, service, staff.agent, pullId);
    expect(report).toMatchObject({ ok: false, reason: "not-found" });
  });

  it("relays the service's PDF report, on the audit trail as a download of the pull", async () => {
    const downloads = () =>
      database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "DOCUMENT_DOWNLOADED"), eq(auditEvents.pullId, pullId)));
    const before = (await downloads()).length;
    const report = await policyCheckReport(database.db, service, staff.manager, pullId);
    expect(report.ok).toBe(true);
    if (report.ok) expect(report.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const after = await downloads();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ actorId: staff.manager.id, details: { report: "policy-check" } });
  });

  it("says in words when the plan lacks the policy check, and keeps nothing", async () => {
    await controlSandbox(sandbox, "plan", { policyCheck: false });
    try {
      const run = await rerunPolicyCheck(database.db, service, staff.manager, pullId);
      expect(run).toMatchObject({ ok: false, message: NOT_IN_PLAN });
      expect(await runsOf(pullId)).toHaveLength(1);
      expect(await policyCheckReport(database.db, service, staff.manager, pullId)).toMatchObject({
        ok: false,
        reason: "not-in-plan",
        message: NOT_IN_PLAN,
      });
      expect(await loadPolicyCheckRulesPage(service)).toMatchObject({ ok: false, notInPlan: true });
      expect(
        await savePolicyCheckRules(database.db, service, staff.admin, { NO_COLLISION_COVERAGE: "on" }),
      ).toMatchObject({ ok: false, message: NOT_IN_PLAN });
      expect(await auditOf("POLICY_CHECK_RULES_CHANGED")).toHaveLength(1);
    } finally {
      await controlSandbox(sandbox, "plan", { policyCheck: true });
    }
  });

  it("says so when the service fails, and keeps nothing", async () => {
    await setFaults(sandbox, { errorRate: 1 });
    try {
      const run = await rerunPolicyCheck(database.db, service, staff.manager, pullId);
      expect(run).toMatchObject({ ok: false, message: expect.stringMatching(/did not answer/) });
      expect(await runsOf(pullId)).toHaveLength(1);
      expect(await loadPolicyCheckRulesPage(service)).toMatchObject({ ok: false, notInPlan: false });
    } finally {
      await setFaults(sandbox, { errorRate: 0 });
    }
  });
});
