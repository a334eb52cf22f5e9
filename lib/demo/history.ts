import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { auditEvents, monitorings, pulls, users, type AuditAction } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { enablePullMonitoring } from "@/lib/monitoring/commands";
import { reconcileMonitorings } from "@/lib/ingest/reconcile-monitorings";
import type { ServiceConfig } from "@/lib/service/client";
import type { AgencyzoomConfig } from "@/lib/env";
import { DEMO_AGENTS, DEMO_PASSWORD } from "@/lib/auth/demo-users";
import { placeDemoOffices } from "./offices";
import { createUser, deactivateUser } from "@/lib/users/users-admin";
import type { Actor } from "@/lib/core/actor";
import { assignPulls } from "@/lib/workflow/assignment";
import { recordAudit } from "@/lib/audit/audit-log";
import { autoAssignPull, saveAssignmentSettings } from "@/lib/workflow/auto-assign";
import { setPullStage } from "@/lib/workflow/funnel";
import { markPullSeen } from "@/lib/workflow/seen";
import { HISTORY_DAYS, PEOPLE, planHistory, type Person, type PlanAccount, type PlanStep } from "./plan";
import { setDemoHistoryProgress } from "./progress";
import { bringDemoDealsBack } from "./returns";
import { saveDemoPolicyCheckRules } from "./policy-check-rules";
import { recordDemoDecisions } from "./review-decisions";
import { placeDemoLegalHold } from "./legal-hold";
import { connectDemoWebhookReceiver } from "./webhook-endpoint";
import { setUpDemoAgencyzoom } from "./agencyzoom";
import { openDemoAccessRequest } from "./privacy-request";
import {
  redeliver,
  refreshWithChange,
  requestHistory,
  requireReconnect,
  startMonitoringOnDashboard,
  type SandboxChange,
} from "./sandbox-control";

// The demo agency's history, built into an empty development database: linked accounts
// arrive over nine months through the sandbox's own webhooks (received and stored by the app's
// inbox and worker, like any pull), then the agency works them through the same commands the
// pages call, each given the moment it happened, and finally part of the book is monitored and
// refreshed. Every step checks whether it is already done, so a server restarted midway resumes
// where it stopped (the STARTED entry of the audit trail keeps the seed, size and end date).

export type DemoHistoryOptions = {
  db: Db;
  service: ServiceConfig;
  /** The sandbox's control API (lib/demo/sandbox-control.ts). */
  controlUrl: string;
  seed: number;
  /** Linked accounts over the period. */
  size: number;
  /** The end of the history: the moment it was first started. */
  until: Date;
  /** How long to wait for the app to store what the sandbox sent. */
  waitTimeoutMs?: number;
  /** The AgencyZoom stand-in (development's default), where one won client is sent; null: none. */
  agencyzoom?: AgencyzoomConfig | null;
  log?: (message: string) => void;
};

export type DemoHistoryResult = { accounts: number; steps: number; failedSteps: number; monitored: number };

const STARTED: AuditAction = "DEMO_HISTORY_STARTED";
const FINISHED: AuditAction = "DEMO_HISTORY_FINISHED";

export type DemoHistoryMark = { seed: number; size: number; until: Date; finished: boolean };

/** Whether a demo history was started in this database, with what it was started with. */
export async function getDemoHistoryMark(db: Db): Promise<DemoHistoryMark | null> {
  const rows = await db
    .select({ action: auditEvents.action, details: auditEvents.details })
    .from(auditEvents)
    .where(inArray(auditEvents.action, [STARTED, FINISHED]));
  const started = rows.find((r) => r.action === STARTED)?.details as
    { seed?: number; size?: number; until?: string } | undefined;
  if (!started || typeof started.seed !== "number" || typeof started.size !== "number" || !started.until) return null;
  return {
    seed: started.seed,
    size: started.size,
    until: new Date(started.until),
    finished: rows.some((r) => r.action === FINISHED),
  };
}

export async function markDemoHistoryStarted(db: Db, mark: Omit<DemoHistoryMark, "finished">): Promise<void> {
  await recordAudit(db, null, STARTED, {
    details: { seed: mark.seed, size: mark.size, until: mark.until.toISOString() },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storedAmong(db: Db, pullIds: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < pullIds.length; i += 500) {
    const rows = await db
      .select({ pullId: pulls.pullId })
      .from(pulls)
      .where(inArray(pulls.pullId, pullIds.slice(i, i + 500)));
    for (const row of rows) found.add(row.pullId);
  }
  return found;
}

/** Waits until the app has stored every one of these pulls (its worker takes them from the inbox). */
async function waitForPulls(
  db: Db,
  pullIds: string[],
  timeoutMs: number,
  onProgress: (stored: number) => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stored = (await storedAmong(db, pullIds)).size;
    onProgress(stored);
    if (stored === pullIds.length) return;
    if (Date.now() > deadline)
      throw new Error(
        `only ${stored} of ${pullIds.length} demo pulls were stored in ${Math.round(timeoutMs / 1000)} s`,
      );
    await sleep(500);
  }
}

type Staff = Map<Person, Actor & { isActive: boolean }>;

async function loadStaff(db: Db): Promise<Staff> {
  const emails = Object.values(PEOPLE);
  const rows = await db
    .select({ id: users.id, name: users.name, role: users.role, email: users.email, isActive: users.isActive })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, emails));
  const staff: Staff = new Map();
  for (const [person, email] of Object.entries(PEOPLE) as Array<[Person, string]>) {
    const row = rows.find((r) => r.email.toLowerCase() === email);
    if (row) staff.set(person, { id: row.id, name: row.name, role: row.role, isActive: row.isActive });
  }
  return staff;
}

function need(staff: Staff, person: Person): Actor & { isActive: boolean } {
  const actor = staff.get(person);
  if (!actor) throw new Error(`the demo user ${PEOPLE[person]} is missing`);
  return actor;
}

/** Audit entries already written for the history's moments: a step whose entry exists is done. */
async function writtenKeys(db: Db, until: Date): Promise<Set<string>> {
  const rows = await db
    .select({ action: auditEvents.action, pullId: auditEvents.pullId, at: auditEvents.at })
    .from(auditEvents)
    .where(sql`${auditEvents.at} <= ${until.toISOString()}::timestamptz`);
  return new Set(rows.map((r) => key(r.action, r.pullId, r.at)));
}
const key = (action: string, pullId: string | null, at: Date) => `${action}|${pullId ?? ""}|${at.getTime()}`;

function statesOf(raw: unknown): string[] {
  const record = raw as { policies?: Array<{ state?: unknown }>; addresses?: Array<{ state?: unknown }> };
  const states = [...(record.policies ?? []), ...(record.addresses ?? [])].map((item) => item?.state);
  return [...new Set(states.filter((s): s is string => typeof s === "string" && s !== "").map((s) => s.toUpperCase()))];
}

/** A documentation address (RFC 5737) of the demo's own, one per person, the same at every run. */
function demoAddressOf(userId: string): string {
  let sum = 0;
  for (const char of userId) sum = (sum * 31 + char.charCodeAt(0)) % 200;
  return `198.51.100.${sum + 20}`;
}

async function currentAssignee(db: Db, pullId: string): Promise<string | null> {
  const [row] = await db.select({ assigneeId: pulls.assigneeId }).from(pulls).where(eq(pulls.pullId, pullId));
  return row?.assigneeId ?? null;
}

/** Carries out one step of the plan unless it is already done; false when a command refused it. */
async function runStep(db: Db, step: PlanStep, staff: Staff, done: Set<string>): Promise<boolean> {
  const admin = need(staff, "admin");
  const manager = need(staff, "manager");
  const ok = (result: { ok: boolean }) => result.ok;
  switch (step.kind) {
    case "create-agent": {
      if (staff.has(step.who)) return true;
      const agent = DEMO_AGENTS.find((a) => a.email === PEOPLE[step.who]);
      if (!agent) return false;
      // Through the admin's command (and its audit entry); the password is then the published demo one.
      const created = await createUser(
        db,
        admin,
        { ...agent, password: randomBytes(18).toString("base64url") },
        step.at,
      );
      if (!created.ok) return false;
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(DEMO_PASSWORD) })
        .where(eq(users.id, created.id));
      staff.set(step.who, { id: created.id, name: agent.name, role: agent.role, isActive: true });
      return true;
    }
    case "assignment-rules": {
      if (done.has(key("ASSIGNMENT_SETTINGS_CHANGED", null, step.at))) return true;
      const result = await saveAssignmentSettings(
        db,
        admin,
        {
          mode: "RULES",
          rules: step.rules.map((r) => ({
            state: r.state,
            lineOfBusiness: r.lineOfBusiness,
            assigneeId: need(staff, r.assignee).id,
          })),
          fallbackAssigneeId: need(staff, step.fallback).id,
        },
        step.at,
      );
      return ok(result);
    }
    case "deactivate": {
      const who = need(staff, step.who);
      if (!who.isActive) return true;
      const result = await deactivateUser(
        db,
        admin,
        { userId: who.id, handoverTo: need(staff, step.handoverTo).id },
        step.at,
      );
      if (result.ok) who.isActive = false;
      return ok(result);
    }
    case "auto-assign": {
      const [row] = await db
        .select({ assigneeId: pulls.assigneeId, raw: pulls.raw, policyTypes: pulls.policyTypes })
        .from(pulls)
        .where(eq(pulls.pullId, step.pullId));
      if (!row || row.assigneeId) return true;
      await db.transaction((tx) =>
        autoAssignPull(
          tx,
          { pullId: step.pullId, states: statesOf(row.raw), linesOfBusiness: row.policyTypes },
          step.at,
        ),
      );
      return true;
    }
    case "assign": {
      if (done.has(key("PULL_ASSIGNED", step.pullId, step.at))) return true;
      const by = need(staff, step.by);
      return ok(await assignPulls(db, by, { pullIds: [step.pullId], assigneeId: need(staff, step.to).id }, step.at));
    }
    case "claim": {
      if ((await currentAssignee(db, step.pullId)) !== null) return true;
      const agent = need(staff, step.by);
      return ok(await assignPulls(db, agent, { pullIds: [step.pullId], assigneeId: agent.id }, step.at));
    }
    case "open": {
      const assignee = await currentAssignee(db, step.pullId);
      if (assignee) await markPullSeen(db, assignee, step.pullId, step.at);
      // The view on the audit trail, from the agent's own office address, so the incident-scope
      // report (/admin/incident) has a book to answer for on first run.
      const viewer = [...staff.values()].find((s) => s.id === assignee);
      if (viewer && !done.has(key("PULL_VIEWED", step.pullId, step.at)))
        await recordAudit(db, { ...viewer, address: demoAddressOf(viewer.id) }, "PULL_VIEWED", {
          pullId: step.pullId,
          at: step.at,
        });
      return true;
    }
    case "won":
    case "lost": {
      if (done.has(key("STAGE_CHANGED", step.pullId, step.at))) return true;
      // The agent who has the pull decides it; a manager does when it sits with no active agent.
      const assignee = await currentAssignee(db, step.pullId);
      const owner = [...staff.values()].find((s) => s.id === assignee && s.isActive && s.role === "AGENT");
      const input =
        step.kind === "won"
          ? { pullId: step.pullId, stage: "WON" as const, premium: step.premium }
          : {
              pullId: step.pullId,
              stage: "LOST" as const,
              lostReason: step.reason ?? undefined,
              lostCategory: step.category,
              lostToCarrier: step.carrier ?? undefined,
              lostToPremium: step.premium ?? undefined,
            };
      return ok(await setPullStage(db, owner ?? manager, input, step.at));
    }
  }
}

const CHANGES: readonly SandboxChange[] = [
  "renewal_increase",
  "vehicle_added",
  "mortgagee_added",
  "claim_opened",
  "policy_cancelled",
];
const fits = (change: SandboxChange, types: string[]) =>
  change === "vehicle_added"
    ? types.includes("AUTO")
    : change === "mortgagee_added"
      ? types.some((t) => ["HOMEOWNERS", "CONDO", "LANDLORD"].includes(t))
      : types.length > 0;

/** Monitoring on part of the recent book, refreshes that find each kind of change, and reconnects. */
async function monitorPart(
  options: DemoHistoryOptions,
  bookIds: string[],
  staff: Staff,
  log: (message: string) => void,
): Promise<number> {
  const { db, service, controlUrl, until } = options;
  const manager = need(staff, "manager");
  // The service monitors only pulls up to 90 days old.
  const recent = await db
    .select({ pullId: pulls.pullId, policyTypes: pulls.policyTypes })
    .from(pulls)
    .where(
      and(
        inArray(pulls.pullId, bookIds),
        eq(pulls.status, "SUCCESS"),
        eq(pulls.type, "PULLING_DATA"),
        eq(pulls.isArchived, false),
        sql`${pulls.policyCount} > 0`,
        sql`${pulls.serviceCreatedAt} > ${new Date(until.getTime() - 80 * 86_400_000).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(pulls.serviceCreatedAt, pulls.pullId);
  const wanted = Math.min(recent.length, Math.max(8, Math.round(options.size * 0.09)));
  const step = recent.length / Math.max(1, wanted);
  const chosen = Array.from({ length: wanted }, (_, i) => recent[Math.floor(i * step)]).filter(
    (p): p is (typeof recent)[number] => Boolean(p),
  );
  const already = new Set(
    (
      await db
        .select({ initialPullId: monitorings.initialPullId })
        .from(monitorings)
        .where(isNotNull(monitorings.initialPullId))
    ).map((m) => m.initialPullId),
  );
  // Which accounts find which change, and which need their consumer: every kind at least once.
  const changes: Array<SandboxChange | "reconnect" | null> = chosen.map(() => null);
  const refreshes = Math.max(CHANGES.length, Math.round(chosen.length * 0.5));
  const reconnects = Math.max(2, Math.round(chosen.length * 0.2));
  for (let n = 0; n < refreshes; n++) {
    const change = CHANGES[n % CHANGES.length] ?? "renewal_increase";
    const index = chosen.findIndex((p, i) => changes[i] === null && fits(change, p.policyTypes));
    if (index >= 0) changes[index] = change;
  }
  for (let n = 0; n < reconnects; n++) {
    const index = changes.lastIndexOf(null);
    if (index >= 0) changes[index] = "reconnect";
  }

  const awaitedPulls: string[] = [];
  const awaitedReconnects: string[] = [];
  let monitored = 0;
  for (const [i, pull] of chosen.entries()) {
    if (already.has(pull.pullId)) continue;
    const every = [1, 3, 6, 12][i % 4] ?? 3;
    const enabled = await enablePullMonitoring(db, service, manager, { pullId: pull.pullId, every, unit: "M" });
    if (!enabled.ok) {
      log(`monitoring ${pull.pullId} refused: ${enabled.message}`);
      continue;
    }
    monitored++;
    const change = changes[i];
    if (change === "reconnect") {
      await requireReconnect(controlUrl, enabled.monitoringId);
      awaitedReconnects.push(enabled.monitoringId);
    } else if (change) {
      const newPullId = await refreshWithChange(controlUrl, enabled.monitoringId, change);
      if (newPullId) awaitedPulls.push(newPullId);
    }
  }
  // One account more is monitored from the service's dashboard, outside Coverdesk: the sync's
  // pass over the team's monitorings finds it, and its page says where it was started.
  const outside = recent.findLast((p) => !chosen.includes(p) && !already.has(p.pullId));
  if (outside) {
    await startMonitoringOnDashboard(controlUrl, outside.pullId, "P2M");
    await reconcileMonitorings(db, service, { problem: log });
  }
  const deadline = Date.now() + (options.waitTimeoutMs ?? 600_000);
  for (;;) {
    const stored = (await storedAmong(db, awaitedPulls)).size;
    const waiting =
      awaitedReconnects.length === 0
        ? 0
        : (
            await db
              .select({ id: monitorings.monitoringId })
              .from(monitorings)
              .where(
                and(inArray(monitorings.monitoringId, awaitedReconnects), isNotNull(monitorings.reconnectRequestedAt)),
              )
          ).length;
    if (stored === awaitedPulls.length && waiting === awaitedReconnects.length) break;
    if (Date.now() > deadline) {
      log(
        `refreshes: ${stored} of ${awaitedPulls.length} stored, ${waiting} of ${awaitedReconnects.length} reconnects`,
      );
      break;
    }
    await sleep(500);
  }
  return monitored;
}

export async function buildDemoHistory(options: DemoHistoryOptions): Promise<DemoHistoryResult> {
  const { db, controlUrl, seed, size, until } = options;
  const log = options.log ?? (() => {});
  const waitTimeoutMs = options.waitTimeoutMs ?? 600_000;
  const mark = await getDemoHistoryMark(db);
  if (mark?.finished) return { accounts: 0, steps: 0, failedSteps: 0, monitored: 0 };
  if (!mark) await markDemoHistoryStarted(db, { seed, size, until });
  // Again on a resume: a sandbox started afresh has forgotten them.
  await saveDemoPolicyCheckRules(options.service, log);
  await connectDemoWebhookReceiver(db, controlUrl, log);

  try {
    // 1. The accounts arrive: the sandbox serves its book and sends a webhook for each pull
    //    not stored yet; the app's receiver and worker take them in.
    setDemoHistoryProgress({ phase: "receiving", done: 0, total: size });
    const book = await requestHistory(controlUrl, { seed, count: size, days: HISTORY_DAYS, until, deliver: false });
    const bookIds = book.map((p) => p.pull_id);
    const stored = await storedAmong(db, bookIds);
    await redeliver(
      controlUrl,
      bookIds.filter((id) => !stored.has(id)),
    );
    await waitForPulls(db, bookIds, waitTimeoutMs, (n) =>
      setDemoHistoryProgress({ phase: "receiving", done: n, total: size }),
    );
    log(`${bookIds.length} linked accounts received`);

    // 2. The agency works them, in the order things happened.
    const rows = await db
      .select({
        pullId: pulls.pullId,
        createdAt: pulls.serviceCreatedAt,
        status: pulls.status,
        totalPremiumCents: pulls.totalPremiumCents,
      })
      .from(pulls)
      .where(inArray(pulls.pullId, bookIds));
    const accounts: PlanAccount[] = rows
      .map((r) => ({
        pullId: r.pullId,
        createdAt: r.createdAt ?? until,
        successful: r.status === "SUCCESS",
        totalPremiumCents: r.totalPremiumCents,
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.pullId.localeCompare(b.pullId));
    const plan = planHistory(seed, until, accounts);
    const staff = await loadStaff(db);
    const done = await writtenKeys(db, until);
    const lastSteps = [...plan.lastStepOf.values()].sort((a, b) => a - b);
    let finishedAccounts = accounts.length - lastSteps.length;
    let failedSteps = 0;
    for (const [index, step] of plan.steps.entries()) {
      if (!(await runStep(db, step, staff, done))) {
        failedSteps++;
        log(`step ${step.kind} at ${step.at.toISOString()} was refused`);
      }
      while (lastSteps[0] !== undefined && lastSteps[0] <= index) {
        lastSteps.shift();
        finishedAccounts++;
      }
      if (index % 10 === 0) setDemoHistoryProgress({ phase: "working", done: finishedAccounts, total: size });
    }
    // The offices, once the history is worked (as agency-wide people), so the pulls take their offices.
    await placeDemoOffices(db);
    log(`${plan.steps.length} steps of the agency's work written (${failedSteps} refused)`);

    // 3. Lost deals whose X-dates came within the lead time come back; one is won again.
    const back = await bringDemoDealsBack(db, { until, agents: [...staff.values()], manager: need(staff, "manager") });
    log(`${back.returned} lost deals came back${back.won ? ", one was won again" : ""}`);

    // The coverage review gone through with a few clients: decisions in the E&O record.
    const decided = await recordDemoDecisions(db, {
      until,
      staff: [...staff.values()],
      manager: need(staff, "manager"),
    });
    log(`${decided} coverage review decisions recorded`);
    // A client's request for a copy of their data, open on the request desk with its clock running.
    if ((await openDemoAccessRequest(db, { until, admin: need(staff, "admin") })) > 0)
      log("a consumer's access request is open on the request desk");

    // A lost deal's account on legal hold: the retention page lists it, its pull's page shows it.
    if (await placeDemoLegalHold(db, need(staff, "admin"))) log("one account placed on legal hold");

    // AgencyZoom set up by the admin, and one won client already sent there as a lead.
    await setUpDemoAgencyzoom(db, {
      agent: need(staff, "alex"),
      config: options.agencyzoom ?? null,
      log,
    }).catch((error: unknown) =>
      log(`AgencyZoom was not set up: ${error instanceof Error ? error.message : String(error)}`),
    );

    // 4. Monitoring on part of the book, with refreshes and accounts that need their consumer.
    setDemoHistoryProgress({ phase: "monitoring", done: size, total: size });
    const monitored = await monitorPart(options, bookIds, staff, log);
    await recordAudit(db, null, FINISHED, { details: { accounts: accounts.length, steps: plan.steps.length } });
    return { accounts: accounts.length, steps: plan.steps.length, failedSteps, monitored };
  } finally {
    setDemoHistoryProgress(null);
  }
}
