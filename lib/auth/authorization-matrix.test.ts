import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  alerts,
  apiKeys,
  auditEvents,
  legalHolds,
  monitorings,
  offices,
  privacyRequests,
  pulls,
  reconnectPages,
  servicingRequests,
  userPasskeys,
  userSessions,
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "@/db/schema";
import { queryRows } from "@/db/connect";
import { configuredReconnectPageKey } from "@/lib/monitoring/reconnect-page-key";
import { reconnectPageToken } from "@/lib/monitoring/reconnect-page-token";
import { configuredServicingLinkKey, servicingPageToken } from "@/lib/servicing/link";
import { storePull } from "@/lib/ingest/store-pull";
import { reviewHousehold } from "@/lib/review/coverage";
import { DEFAULT_REVIEW_RULES } from "@/lib/review/review-rules";
import { driverSubjectsOf, dwellingSubjectsOf } from "@/lib/enrichment/question";
import { parsePull } from "@/lib/service/schemas";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";

// Every server action and route handler, called as each role and without a session, against
// a real database: allowed calls get through, refused ones change no row. The session is the
// only stand-in (next-auth's cookie check); permissions, commands and the database are real.
// A second test fails when an action or route is added without a line in this matrix.

type Who = "admin" | "manager" | "agent" | "otherAgent" | "none";
const EVERYONE: Who[] = ["admin", "manager", "agent", "otherAgent", "none"];

let current: { id: string } | null = null;
/** Each user's open server-side session (user_sessions), which the session cookie names. */
const sessions: Record<string, string> = {};
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: sessions[current.id] } : null),
  default: () => null,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-forwarded-for": "192.0.2.10" }) }));

let database: TestDatabase;
const ids: Record<Exclude<Who, "none">, string> = { admin: "", manager: "", agent: "", otherAgent: "" };
let ownPull = ""; // assigned to "agent"
let queuePull = ""; // unassigned
let failedEvent = 0;
let queueAlert = 0;
/** The consumer requests of the desk: an access request (its export), an erasure (erase it), one erased (tell the service). */
const privacy = { access: "", erasure: "", erased: "" };

let ownPullHold = 0;

async function baseline() {
  await database.db.execute(
    sql`truncate audit_events, webhook_events, sync_runs, assignment_settings, monitorings, reconnect_pages, rate_limit_windows, pull_versions, policies, pulls, alerts, agency_rules, digest_runs, finding_decisions, policy_check_runs, enrichment_answers, security_settings, legal_holds, retention_schedule, privacy_requests, erased_subjects, api_keys, webhook_endpoints, users, offices cascade`,
  );
  // An office with nobody in it: renamed, deleted, or a user moved into it.
  await database.db.insert(offices).values({ id: MATRIX_OFFICE_ID, name: "Matrix office" });
  const staff = await database.db
    .insert(users)
    .values([
      { email: "admin@m.test", name: "Admin", role: "ADMIN", passwordHash: "x" },
      { email: "manager@m.test", name: "Manager", role: "MANAGER", passwordHash: "x" },
      { email: "agent@m.test", name: "Agent", role: "AGENT", passwordHash: "x" },
      { email: "other@m.test", name: "Other", role: "AGENT", passwordHash: "x" },
    ])
    .returning({ id: users.id });
  const [admin, manager, agent, otherAgent] = staff.map((s) => s.id);
  if (!admin || !manager || !agent || !otherAgent) throw new Error("staff not created");
  Object.assign(ids, { admin, manager, agent, otherAgent });
  for (const id of [admin, manager, agent, otherAgent]) {
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: id, expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    sessions[id] = session?.id ?? "";
  }
  const sample = generatePulls(77, 6, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
  for (const pull of sample.slice(0, 2)) await storePull(database.db, pull);
  ownPull = sample[0]?.pull_id ?? "";
  queuePull = sample[1]?.pull_id ?? "";
  await database.db.update(pulls).set({ assigneeId: ids.agent }).where(eq(pulls.pullId, ownPull));
  await database.db.insert(monitorings).values({
    monitoringId: "mon_matrix",
    initialPullId: ownPull,
    status: "ACTIVE",
    interval: "P1M",
    reconnectRequestedAt: new Date(),
    reconnectAuthStatus: "NOT_AUTHENTICATED",
    reconnectToken: "rct_matrix",
  });
  await database.db.insert(monitorings).values({
    monitoringId: "mon_matrix_page",
    initialPullId: queuePull,
    status: "ACTIVE",
    interval: "P1M",
    reconnectRequestedAt: new Date(),
    reconnectAuthStatus: "NOT_AUTHENTICATED",
    reconnectToken: "rct_matrix_page",
  });
  await database.db.insert(reconnectPages).values({
    id: "MATRIXMATRIXMATRIXMATR",
    monitoringId: "mon_matrix_page",
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  // A servicing request of the queue's pull, waiting for its consumer (the public page's answer).
  await database.db.insert(servicingRequests).values({
    id: MATRIX_SERVICING_ID,
    pullId: queuePull,
    accountKey: queuePull,
    actionType: "REMOVE_MORTGAGEE",
    payload: { carrier_policy_number: "HO-MATRIX", mortgagee_type: "FIRST" },
    servicingPullId: "0f0e0d0c-0b0a-4909-8807-060504030201",
    sessionJwt: "jwt.matrix.x",
    servicingActionId: "act_matrix",
    status: "WAITING_FOR_CONSUMER_CONFIRMATION",
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  // A key of the public API, for the API keys page's revoke.
  await database.db.insert(apiKeys).values({
    id: MATRIX_API_KEY_ID,
    name: "Matrix",
    scopes: ["pulls:read"],
    secretHash: "0".repeat(64),
    prefix: "cdk_matrix",
  });
  // An outgoing webhook endpoint with one failed delivery, for the webhooks page's buttons.
  await database.db.insert(webhookEndpoints).values({
    id: MATRIX_WEBHOOK_ENDPOINT_ID,
    url: "https://hooks.example.com/matrix",
    events: ["pull.created"],
    secretSealed: "k1.x.y.z",
    createdByName: "API key: Matrix",
  });
  await database.db.insert(webhookDeliveries).values({
    id: MATRIX_WEBHOOK_DELIVERY_ID,
    endpointId: MATRIX_WEBHOOK_ENDPOINT_ID,
    eventType: "pull.created",
    payload: {},
    status: "FAILED",
    attempts: 8,
  });
  const [event] = await database.db
    .insert(webhookEvents)
    .values({ dedupKey: "k", eventType: "COMPLETE", pullId: queuePull, status: "FAILED", payload: {} })
    .returning({ id: webhookEvents.id });
  failedEvent = event?.id ?? 0;
  // An alert of the queue (unassigned account), already mailed: everyone signed in may move it,
  // and the digest has nothing to send (so no mail is written), only its day and audit to record.
  const [alert] = await database.db
    .insert(alerts)
    .values({ key: "matrix|alert", kind: "CANCELLED", pullId: queuePull, headline: "Cancelled", mailedAt: new Date() })
    .returning({ id: alerts.id });
  queueAlert = alert?.id ?? 0;
  // A legal hold on the agent's pull, for lifting.
  const [hold] = await database.db
    .insert(legalHolds)
    .values({ pullId: ownPull, reason: "Matrix matter", placedBy: admin })
    .returning({ id: legalHolds.id });
  ownPullHold = hold?.id ?? 0;
  const day = new Date().toISOString().slice(0, 10);
  const requests = await database.db
    .insert(privacyRequests)
    .values([
      { kind: "ACCESS", receivedOn: day, dueOn: day, pullIds: [ownPull] },
      { kind: "ERASURE", receivedOn: day, dueOn: day, pullIds: [queuePull] },
      { kind: "ERASURE", status: "DONE", receivedOn: day, dueOn: day, servicePullIds: [MATRIX_ERASED_PULL] },
    ])
    .returning({ id: privacyRequests.id });
  Object.assign(privacy, { access: requests[0]?.id, erasure: requests[1]?.id, erased: requests[2]?.id });
}
const MATRIX_ERASED_PULL = "0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d";

/** A fingerprint of everything an action could write. */
async function snapshot(): Promise<string> {
  const tables = [
    "users",
    "offices",
    "pulls",
    "audit_events",
    "webhook_events",
    "assignment_settings",
    "sync_runs",
    "monitorings",
    "reconnect_pages",
    "calendar_feeds",
    "alerts",
    "agency_rules",
    "digest_runs",
    "finding_decisions",
    "servicing_requests",
    "policy_check_runs",
    "enrichment_answers",
    "pull_archive_writes",
    "user_factors",
    "redisclosures",
    "security_settings",
    "user_passkeys",
    "passkey_challenges",
    "legal_holds",
    "retention_schedule",
    "privacy_requests",
    "erased_subjects",
    "api_keys",
    "webhook_endpoints",
    "webhook_deliveries",
    "handoffs",
    "agencyzoom_settings",
    "agencyzoom_user_map",
  ];
  const parts = await Promise.all(
    tables.map(
      async (t) =>
        (
          await queryRows<{ h: string | null }>(
            database.db,
            sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${t} t`),
          )
        )[0]?.h,
    ),
  );
  return parts.join(",");
}

function form(values: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values))
    for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  return data;
}

const IDLE = { status: "idle" } as const;
type Outcome = "allowed" | "denied";
/** How a call's answer reads: form states, JSON results, and HTTP responses. */
/** A streamed file read to its end, as a browser would: its audit line is written when the file ends. */
async function downloaded(response: Response): Promise<Response> {
  return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
}

function outcomeOf(result: unknown): Outcome | "unknown" {
  if (result instanceof Response)
    return result.status === 404 || result.status === 401 || result.status === 403 ? "denied" : "allowed";
  if (result && typeof result === "object" && "status" in result) {
    // Past the permission check counts as allowed, even when the input or the service then says no.
    const state = result as { status: string; code?: string };
    return state.status === "done" || ["INVALID", "STALE", "CONFLICT"].includes(state.code ?? "")
      ? "allowed"
      : "denied";
  }
  if (result && typeof result === "object" && "ok" in result)
    return (result as { ok: boolean }).ok ? "allowed" : "denied";
  return "unknown"; // void actions: judged by the database
}

type Entry = {
  name: string;
  allowed: Who[];
  call: () => Promise<unknown>;
  /** Allowed calls that write. */ writes: boolean;
};

const pullActions = () => import("@/app/(app)/pulls/actions");
const eventActions = () => import("@/app/(app)/events/actions");
const privacyActions = () => import("@/app/(app)/admin/privacy/actions");
const userActions = () => import("@/app/(app)/admin/users/actions");
const officeActions = () => import("@/app/(app)/admin/offices/actions");
const MATRIX_OFFICE_ID = "2a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d";
const assignmentActions = () => import("@/app/(app)/admin/assignment/actions");
const serviceActions = () => import("@/app/(app)/admin/service/actions");
const reconnectActions = () => import("@/app/(app)/reconnect/actions");
const consumerActions = () => import("@/app/connect/[token]/actions");
const xdateActions = () => import("@/app/(app)/xdates/actions");
const alertActions = () => import("@/app/(app)/alerts/actions");
const ruleActions = () => import("@/app/(app)/admin/rules/actions");
const reviewRuleActions = () => import("@/app/(app)/admin/review/actions");
const pullPageActions = () => import("@/app/(app)/pulls/[pullId]/actions");
const servicingPageActions = () => import("@/app/servicing/[token]/actions");
const securityActions = () => import("@/app/(app)/account/security/actions");
/** The caller's own authenticator set-up, pending (made outside the guard); a stranger has none. */
const pendingFactorOfCaller = async () => {
  if (current) await (await import("@/lib/auth/second-factor")).startSecondFactor(database.db, callerActor());
};
const MATRIX_SERVICING_ID = "MATRIXSERVICINGMATRIXS";
const MATRIX_API_KEY_ID = "0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d";
const MATRIX_WEBHOOK_ENDPOINT_ID = "1a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d";
const MATRIX_WEBHOOK_DELIVERY_ID = "msg_matrix";
/** A look-up the agent's pull offers (a home, else a driver), for the enrichment form. */
const enrichmentOfOwnPull = async () => {
  const [row] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, ownPull));
  const parsed = parsePull(row?.raw);
  if (!parsed.ok) return { kind: "PROPERTY_DATA", subjectKey: "" };
  const home = dwellingSubjectsOf(parsed.pull)[0];
  if (home) return { kind: "PROPERTY_DATA", subjectKey: home.subjectKey };
  return { kind: "DRIVING_RECORD", subjectKey: driverSubjectsOf(parsed.pull)[0]?.subjectKey ?? "" };
};
/** A finding of the agent's pull as today's review finds it, for the decision's form. */
const findingOfOwnPull = async () => {
  const [row] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, ownPull));
  const parsed = parsePull(row?.raw);
  if (!parsed.ok) return "";
  const settings = { ...DEFAULT_REVIEW_RULES, leadTimeDays: 45 };
  return reviewHousehold(parsed.pull, settings, new Date().toISOString().slice(0, 10))[0]?.key ?? "";
};
const callerActor = () => {
  const who = (Object.keys(ids) as Array<keyof typeof ids>).find((key) => ids[key] === current?.id) ?? "admin";
  const roles = { admin: "ADMIN", manager: "MANAGER", agent: "AGENT", otherAgent: "AGENT" } as const;
  return { id: ids[who], name: who, role: roles[who] };
};
/** The consumer's reconnect page is guarded by the token in its address, not by a session. */
const reconnectPage = async () => reconnectPageToken(configuredReconnectPageKey(), (await reconnectPageIds())[0] ?? "");
const reconnectPageIds = async () =>
  (await database.db.select({ id: reconnectPages.id }).from(reconnectPages)).map((r) => r.id);

const MATRIX: Entry[] = [
  {
    name: "pulls/assignPullAction",
    allowed: ["admin", "manager"],
    writes: true,
    call: async () =>
      (await pullActions()).assignPullAction(IDLE, form({ pullId: queuePull, assigneeId: ids.manager })),
  },
  {
    name: "pulls/claimPullAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => (await pullActions()).claimPullAction(IDLE, form({ pullId: queuePull })),
  },
  {
    name: "pulls/bulkAssignAction",
    allowed: ["admin", "manager"],
    writes: true,
    call: async () =>
      (await pullActions()).bulkAssignAction(IDLE, form({ pullIds: [ownPull, queuePull], assigneeId: ids.otherAgent })),
  },
  {
    name: "pulls/setStageAction",
    allowed: ["admin", "manager", "agent"],
    writes: true,
    call: async () =>
      (await pullActions()).setStageAction(IDLE, form({ pullId: ownPull, stage: "WON", premium: "1200" })),
  },
  {
    name: "events/retryEventAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await eventActions()).retryEventAction(form({ eventId: String(failedEvent) })),
  },
  {
    name: "events/retryAllFailedAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await eventActions()).retryAllFailedAction(),
  },
  {
    name: "events/startSyncAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await eventActions()).startSyncAction(),
  },
  // The API keys page: admins make and revoke keys of the public API.
  {
    name: "admin/api-keys/createApiKeyAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/api-keys/actions")).createApiKeyAction(
        IDLE,
        form({ name: "Zapier", scopes: ["pulls:read", "pulls:write"] }),
      ),
  },
  {
    name: "admin/api-keys/revokeApiKeyAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/api-keys/actions")).revokeApiKeyAction(IDLE, form({ id: MATRIX_API_KEY_ID })),
  },
  // The webhooks page: admins send a delivery again or delete an endpoint.
  {
    name: "admin/webhooks/resendDeliveryAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/webhooks/actions")).resendDeliveryAction(
        IDLE,
        form({ id: MATRIX_WEBHOOK_DELIVERY_ID }),
      ),
  },
  {
    name: "admin/webhooks/deleteEndpointAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/webhooks/actions")).deleteEndpointAction(
        IDLE,
        form({ id: MATRIX_WEBHOOK_ENDPOINT_ID }),
      ),
  },
  {
    name: "admin/users/createUserAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await userActions()).createUserAction(
        IDLE,
        form({ email: "new@m.test", name: "New", role: "AGENT", password: "a-long-password-1" }),
      ),
  },
  {
    name: "admin/users/updateUserAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await userActions()).updateUserAction(IDLE, form({ userId: ids.otherAgent, role: "MANAGER" })),
  },
  {
    name: "admin/users/resetPasswordAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await userActions()).resetPasswordAction(IDLE, form({ userId: ids.otherAgent, password: "another-password-2" })),
  },
  {
    name: "admin/users/resetSecondFactorAction",
    allowed: ["admin"],
    writes: true /* the sessions it ends, the audit trail */,
    call: async () => (await userActions()).resetSecondFactorAction(IDLE, form({ userId: ids.otherAgent })),
  },
  {
    name: "admin/users/saveSecondFactorRequirementAction",
    allowed: ["admin"],
    writes: true,
    // Off: an admin without a factor of their own may not turn it on (lib/auth/second-factor-requirement.test.ts).
    call: async () => (await userActions()).saveSecondFactorRequirementAction(IDLE, form({ required: "off" })),
  },
  {
    name: "admin/users/deactivateUserAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await userActions()).deactivateUserAction(IDLE, form({ userId: ids.otherAgent, handoverTo: "" })),
  },
  {
    name: "admin/offices/createOfficeAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await officeActions()).createOfficeAction(IDLE, form({ name: "Riverside" })),
  },
  {
    name: "admin/offices/renameOfficeAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await officeActions()).renameOfficeAction(IDLE, form({ id: MATRIX_OFFICE_ID, name: "Main Street" })),
  },
  {
    name: "admin/offices/deleteOfficeAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await officeActions()).deleteOfficeAction(IDLE, form({ id: MATRIX_OFFICE_ID })),
  },
  {
    name: "admin/offices/setUserOfficeAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await officeActions()).setUserOfficeAction(IDLE, form({ userId: ids.otherAgent, officeId: MATRIX_OFFICE_ID })),
  },
  {
    name: "admin/assignment/saveAssignmentAction",
    allowed: ["admin"],
    writes: true,
    call: async () => (await assignmentActions()).saveAssignmentAction(IDLE, form({ mode: "ROUND_ROBIN" })),
  },
  // No service runs beside this test: an allowed call reaches the client and fails there, writing nothing.
  {
    name: "admin/service/registerWebhookAction",
    allowed: ["admin"],
    writes: false,
    call: async () => (await serviceActions()).registerWebhookAction(IDLE),
  },
  {
    name: "admin/service/setWebhookActiveAction",
    allowed: ["admin"],
    writes: false,
    call: async () =>
      (await serviceActions()).setWebhookActiveAction(IDLE, form({ webhookId: "wh_1", active: "false" })),
  },
  // The service is not running here: allowed calls pass the permission check and are then
  // refused by the unreachable service (CONFLICT), changing nothing.
  {
    name: "pulls/enableMonitoringAction",
    allowed: ["admin", "manager"],
    writes: false,
    call: async () =>
      (await pullActions()).enableMonitoringAction(IDLE, form({ pullId: ownPull, every: "1", unit: "M" })),
  },
  {
    name: "pulls/changeMonitoringAction",
    allowed: ["admin", "manager"],
    writes: false,
    call: async () =>
      (await pullActions()).changeMonitoringAction(
        IDLE,
        form({ pullId: ownPull, monitoringId: "mon_matrix", every: "2", unit: "M" }),
      ),
  },
  {
    name: "pulls/stopMonitoringAction",
    allowed: ["admin", "manager"],
    writes: false,
    call: async () =>
      (await pullActions()).stopMonitoringAction(IDLE, form({ pullId: ownPull, monitoringId: "mon_matrix" })),
  },
  {
    name: "pulls/refreshMonitoringAction",
    allowed: ["admin", "manager"],
    writes: false,
    call: async () =>
      (await pullActions()).refreshMonitoringAction(IDLE, form({ pullId: ownPull, monitoringId: "mon_matrix" })),
  },
  // Archiving is kept here even when the service cannot be told (it is told again by the sync).
  {
    name: "pulls/archivePullAction",
    allowed: ["admin", "manager"],
    writes: true,
    call: async () => (await pullActions()).archivePullAction(IDLE, form({ pullId: ownPull, archived: "true" })),
  },
  // Whoever may see the account may ask for a fresh link; the service is unreachable here.
  {
    name: "reconnect/renewReconnectLinkAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => (await reconnectActions()).renewReconnectLinkAction(IDLE, form({ monitoringId: "mon_matrix" })),
  },
  {
    name: "reconnect/openReconnectPageAction",
    allowed: ["admin", "manager", "agent"],
    writes: true,
    call: async () => (await reconnectActions()).openReconnectPageAction(IDLE, form({ monitoringId: "mon_matrix" })),
  },
  // Whoever may see the account may withdraw its page (none is open here, or the one just made).
  {
    name: "reconnect/revokeReconnectPageAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => (await reconnectActions()).revokeReconnectPageAction(IDLE, form({ monitoringId: "mon_matrix" })),
  },
  // Public, token-guarded: anyone holding the page's address may answer (here the service is
  // unreachable, so the answer is refused after the guard); a wrong token is refused for all.
  {
    name: "connect/[token]/answerReconnectPageAction",
    allowed: EVERYONE,
    writes: false,
    call: async () =>
      (await consumerActions()).answerReconnectPageAction(
        IDLE,
        form({ token: await reconnectPage(), kind: "credentials", username: "u", password: "p" }),
      ),
  },
  {
    name: "GET /api/connect/[token]/status",
    allowed: EVERYONE,
    writes: false,
    call: async () =>
      (await import("@/app/api/connect/[token]/status/route")).GET(
        new Request("http://app/x", { headers: { "x-forwarded-for": "192.0.2.10" } }),
        { params: reconnectPage().then((token) => ({ token })) },
      ),
  },
  {
    name: "GET /api/admin/sync",
    allowed: ["admin"],
    writes: false,
    call: async () => (await import("@/app/api/admin/sync/route")).GET(),
  },
  // Who saw which consumers, and where driver data went: admins only.
  {
    name: "GET /api/admin/incident/csv",
    allowed: ["admin"],
    writes: true /* the audit trail */,
    call: async () =>
      (await import("@/app/api/admin/incident/csv/route")).GET(
        new Request(`http://app/api/admin/incident/csv?user=${ids.agent}&from=2026-01-01T00:00&to=2026-02-01T00:00`),
      ),
  },
  {
    name: "GET /api/admin/redisclosures/csv",
    allowed: ["admin"],
    writes: true /* the audit trail */,
    call: async () => (await import("@/app/api/admin/redisclosures/csv/route")).GET(),
  },
  {
    name: "GET /api/reports/csv",
    allowed: ["admin", "manager"],
    writes: true /* the audit trail */,
    call: async () =>
      (await import("@/app/api/reports/csv/route")).GET(new Request("http://app/api/reports/csv?table=byAgent")),
  },
  // Everyone signed in may export; what the file holds follows their view (tested below).
  {
    name: "GET /api/pulls/csv",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true /* the audit trail */,
    call: async () =>
      downloaded(await (await import("@/app/api/pulls/csv/route")).GET(new Request("http://app/api/pulls/csv"))),
  },
  {
    name: "GET /api/pulls/[pullId]/documents/[documentId]",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => {
      const { GET } = await import("@/app/api/pulls/[pullId]/documents/[documentId]/route");
      const [pull] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, ownPull));
      const documentId =
        (pull?.raw as { documents: Array<{ document_id: string }> }).documents[0]?.document_id ?? "none";
      // Allowed callers pass the permission check and then reach a service that is not running (502).
      return GET(new Request("http://app/x"), { params: Promise.resolve({ pullId: ownPull, documentId }) });
    },
  },
  {
    name: "GET /api/pulls/[pullId]/policy-forms/[policyFormId]",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => {
      const { GET } = await import("@/app/api/pulls/[pullId]/policy-forms/[policyFormId]/route");
      const [pull] = await database.db.select({ raw: pulls.raw }).from(pulls).where(eq(pulls.pullId, ownPull));
      const policies = (pull?.raw as { policies: Array<{ forms_and_endorsements: Array<{ policy_form_id: string }> }> })
        .policies;
      const policyFormId = policies.flatMap((p) => p.forms_and_endorsements)[0]?.policy_form_id ?? "none";
      // Allowed callers pass the permission check and then reach a service that is not running (502).
      return GET(new Request("http://app/x"), { params: Promise.resolve({ pullId: ownPull, policyFormId }) });
    },
  },
  {
    name: "GET /api/pulls/[pullId]/version",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/version/route")).GET(new Request("http://app/x"), {
        params: Promise.resolve({ pullId: ownPull }),
      }),
  },
  {
    name: "GET /api/pulls/[pullId]/answers/[answerId]/files/[fileId]",
    allowed: [],
    writes: false,
    // No upload with these ids exists: everyone gets the same 404, so existence leaks to no one.
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/answers/[answerId]/files/[fileId]/route")).GET(
        new Request("http://app/x"),
        { params: Promise.resolve({ pullId: ownPull, answerId: "a", fileId: "f" }) },
      ),
  },
  // Everyone signed in has X-dates; what the file holds follows their view (lib/xdates/xdates.test.ts).
  {
    name: "GET /api/xdates/csv",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true /* the audit trail */,
    call: async () =>
      downloaded(await (await import("@/app/api/xdates/csv/route")).GET(new Request("http://app/api/xdates/csv"))),
  },
  // Everyone signed in has the cross-sell list; its rows follow their view (lib/loaders/cross-sell.test.ts).
  {
    name: "GET /api/cross-sell/csv",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true /* the audit trail */,
    call: async () =>
      downloaded(
        await (
          await import("@/app/api/cross-sell/csv/route")
        ).GET(new Request("http://app/api/cross-sell/csv?gap=NO_FLOOD")),
      ),
  },
  // One's own calendar feed: every signed-in user may renew or turn off theirs, and only theirs.
  {
    name: "xdates/renewCalendarFeedAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => (await xdateActions()).renewCalendarFeedAction(IDLE, form({ userId: ids.admin })),
  },
  {
    name: "xdates/turnOffCalendarFeedAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => {
      // Each caller has a feed to turn off (made outside the guard); a stranger's form names no one.
      if (current) await (await import("@/lib/xdates/calendar-feed")).renewCalendarFeed(database.db, callerActor());
      return (await xdateActions()).turnOffCalendarFeedAction(IDLE, form({ userId: ids.admin }));
    },
  },
  // One's own second factor: every signed-in user may set up, confirm or turn off theirs, never
  // another's (the form names no one; lib/auth/second-factor.test.ts for the codes themselves).
  {
    name: "account/security/startSecondFactorAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => (await securityActions()).startSecondFactorAction(IDLE, form({ userId: ids.admin })),
  },
  {
    name: "account/security/confirmSecondFactorAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: false /* a wrong code: refused after the guard */,
    call: async () => {
      await pendingFactorOfCaller();
      return (await securityActions()).confirmSecondFactorAction(IDLE, form({ code: "12345x" }));
    },
  },
  {
    name: "account/security/removeSecondFactorAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => {
      await pendingFactorOfCaller();
      return (await securityActions()).removeSecondFactorAction(IDLE, form({ code: "123456", userId: ids.admin }));
    },
  },
  {
    name: "account/security/renewRecoveryCodesAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: false /* no app set up: refused after the guard */,
    call: async () => (await securityActions()).renewRecoveryCodesAction(IDLE, form({ code: "123456" })),
  },
  {
    name: "account/security/startPasskeyAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true /* the challenge */,
    call: async () => (await securityActions()).startPasskeyAction(form({ userId: ids.admin })),
  },
  {
    name: "account/security/registerPasskeyAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: false /* no browser's answer: refused after the guard (lib/auth/passkeys.test.ts) */,
    call: async () =>
      (await securityActions()).registerPasskeyAction(
        IDLE,
        form({ name: "Matrix", response: "{}", userId: ids.admin }),
      ),
  },
  {
    name: "account/security/removePasskeyAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => {
      // Each caller has a passkey to remove (made outside the guard); a stranger's form names none.
      const [row] = current
        ? await database.db
            .insert(userPasskeys)
            .values({ userId: current.id, credentialId: crypto.randomUUID(), publicKey: "x", name: "Matrix" })
            .returning({ id: userPasskeys.id })
        : [];
      return (await securityActions()).removePasskeyAction(IDLE, form({ passkeyId: row?.id ?? crypto.randomUUID() }));
    },
  },
  // The alert inbox: anyone signed in may move the queue's alert (lib/alerts/alerts.test.ts: not another's).
  {
    name: "alerts/moveAlertAction",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true,
    call: async () => (await alertActions()).moveAlertAction(form({ alertId: String(queueAlert), move: "done" })),
  },
  {
    name: "admin/rules/saveAgencyRulesAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await ruleActions()).saveAgencyRulesAction(
        IDLE,
        form({
          "jumpThresholds.default": "15",
          "jumpThresholds.AUTO": "8",
          digestHour: "6",
          queueAlertsTo: "ADMINS",
          leadTimeDays: "60",
          refreshBudgetPerMonth: "",
          speedToLeadMinutes: "",
          speedToLeadAction: "RAISE",
        }),
      ),
  },
  {
    name: "admin/rules/sendDigestsNowAction",
    allowed: ["admin"],
    writes: true /* the day's run and the audit trail */,
    call: async () => (await ruleActions()).sendDigestsNowAction(IDLE),
  },
  // The E&O record: whoever may work the pull (its agent; managers and admins) records the client's decision.
  {
    name: "pulls/[pullId]/decideFindingAction",
    allowed: ["admin", "manager", "agent"],
    writes: true,
    call: async () =>
      (await pullPageActions()).decideFindingAction(
        IDLE,
        form({ pullId: ownPull, findingKey: await findingOfOwnPull(), decision: "DECLINED", note: "Matrix" }),
      ),
  },
  // A WON client's change at the carrier: its agent, managers and admins (the pull here is not WON,
  // so an allowed call is refused after the permission check, writing nothing; lib/servicing tests the rest).
  {
    name: "pulls/[pullId]/requestServicingAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () =>
      (await pullPageActions()).requestServicingAction(
        IDLE,
        form({ pullId: ownPull, actionType: "REMOVE_MORTGAGEE", mortgagee: "HO-1#FIRST" }),
      ),
  },
  // Withdrawing a client's confirm link: whoever may ask for changes on the client (the request id
  // here is malformed, so an allowed call is refused after the pull's check, writing nothing).
  {
    name: "pulls/[pullId]/revokeServicingLinkAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () =>
      (await pullPageActions()).revokeServicingLinkAction(IDLE, form({ pullId: ownPull, requestId: "not an id" })),
  },
  // Public, token-guarded like the reconnect page: whoever holds the address may answer, but only
  // without a Coverdesk session (staff must not answer for the client). The service is
  // unreachable here, so the client's answer is given back after the guard.
  {
    name: "servicing/[token]/answerServicingPageAction",
    allowed: ["none"],
    writes: false,
    call: async () =>
      (await servicingPageActions()).answerServicingPageAction(
        IDLE,
        form({ token: servicingPageToken(configuredServicingLinkKey(), MATRIX_SERVICING_ID), answer: "confirm" }),
      ),
  },
  {
    name: "admin/review/saveReviewRulesAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await reviewRuleActions()).saveReviewRulesAction(
        IDLE,
        form({
          bodilyInjuryPerPerson: "250,000",
          bodilyInjuryPerAccident: "500000",
          propertyDamage: "100000",
          deductibleCeiling: "1000",
          coinsurancePercent: "80",
          personalLiability: "300000",
          on: ["auto-bodily-injury", "home-dwelling-limit"],
        }),
      ),
  },
  // The service's policy check: whoever may work the pull runs it again; admins set the team's
  // rules; whoever may download the pull's documents gets the service's report. The service is
  // unreachable here: allowed calls pass the permission check and are refused there, keeping nothing.
  {
    name: "pulls/[pullId]/rerunPolicyCheckAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => (await pullPageActions()).rerunPolicyCheckAction(IDLE, form({ pullId: ownPull })),
  },
  // The send to AgencyZoom: whoever may work the pull as its own (admins and managers any). No
  // AgencyZoom answers here and nothing is set up for it: allowed calls are refused for the
  // missing pipeline, before any call, keeping no lead.
  {
    name: "pulls/[pullId]/sendToAgencyzoomAction",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () => (await pullPageActions()).sendToAgencyzoomAction(IDLE, form({ pullId: ownPull })),
  },
  {
    name: "admin/agencyzoom/saveAgencyzoomSettingsAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/agencyzoom/actions")).saveAgencyzoomSettingsAction(
        IDLE,
        form({ pipelineId: "5001", stageId: "50011", leadSourceId: "7001", country: "US", fallbackAssigneeId: "" }),
      ),
  },
  {
    name: "admin/policy-check/savePolicyCheckRulesAction",
    allowed: ["admin"],
    writes: false,
    call: async () =>
      (await import("@/app/(app)/admin/policy-check/actions")).savePolicyCheckRulesAction(
        IDLE,
        form({ NO_COLLISION_COVERAGE: "on", MAX_COLLISION_DEDUCTIBLE_CENTS: "1000" }),
      ),
  },
  {
    name: "GET /api/pulls/[pullId]/policy-check-report",
    allowed: ["admin", "manager", "agent"],
    writes: false,
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/policy-check-report/route")).GET(new Request("http://app/x"), {
        params: Promise.resolve({ pullId: ownPull }),
      }),
  },
  // A paid look-up: whoever may work the pull (its agent, managers, admins). The service is
  // unreachable here: an allowed call claims the question, fails at the client and keeps it
  // FAILED with its audit entry (so it may be asked again); a refused one writes nothing.
  {
    name: "pulls/[pullId]/requestEnrichmentAction",
    allowed: ["admin", "manager", "agent"],
    writes: true,
    call: async () =>
      (await pullPageActions()).requestEnrichmentAction(
        IDLE,
        form({
          pullId: ownPull,
          ...(await enrichmentOfOwnPull()),
          purpose: "INSURANCE_UNDERWRITING",
          dateOfBirth: "03/09/1984",
          confirm: "yes",
        }),
      ),
  },
  // Whoever may see the pull may make its client summary; each one made is audited.
  {
    name: "GET /api/pulls/[pullId]/summary",
    allowed: ["admin", "manager", "agent"],
    writes: true /* the audit trail */,
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/summary/route")).GET(new Request("http://app/x"), {
        params: Promise.resolve({ pullId: ownPull }),
      }),
  },
  // The EZLynx applicant files: whoever may work the pull (its agent, managers, admins; any agent
  // for a pull in the queue); each download is audited. The agent's pull has autos; the queue's
  // pull has a home.
  {
    name: "GET /api/pulls/[pullId]/exports/ezlynx-auto",
    allowed: ["admin", "manager", "agent"],
    writes: true /* the audit trail */,
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/exports/ezlynx-auto/route")).GET(new Request("http://app/x"), {
        params: Promise.resolve({ pullId: ownPull }),
      }),
  },
  {
    name: "GET /api/pulls/[pullId]/exports/ezlynx-home",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: true /* the audit trail */,
    call: async () =>
      (await import("@/app/api/pulls/[pullId]/exports/ezlynx-home/route")).GET(new Request("http://app/x"), {
        params: Promise.resolve({ pullId: queuePull }),
      }),
  },
  // A run of a scheduled job, queued in the runner's own schema (not in the snapshot).
  {
    name: "admin/jobs/runJobNowAction",
    allowed: ["admin"],
    writes: false,
    call: async () =>
      (await import("@/app/(app)/admin/jobs/actions")).runJobNowAction(IDLE, form({ name: "deal-returns" })),
  },
  // The retention schedule and legal holds: admins only.
  {
    name: "admin/retention/saveRetentionScheduleAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await import("@/app/(app)/admin/retention/actions")).saveRetentionScheduleAction(
        IDLE,
        form({
          "PROSPECTS.mode": "MONTHS",
          "PROSPECTS.months": "18",
          "LOST_DEALS.mode": "MONTHS",
          "LOST_DEALS.months": "24",
          "WON_CLIENTS.mode": "KEEP",
          "WON_CLIENTS.months": "60",
          "INBOX_BODIES.mode": "MONTHS",
          "INBOX_BODIES.months": "1",
          "AUDIT_TRAIL.mode": "MONTHS",
          "AUDIT_TRAIL.months": "84",
        }),
      ),
  },
  {
    name: "pulls/[pullId]/placeLegalHoldAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await pullPageActions()).placeLegalHoldAction(
        IDLE,
        form({ pullId: queuePull, scope: "ACCOUNT", reason: "Matrix subpoena" }),
      ),
  },
  {
    name: "pulls/[pullId]/liftLegalHoldAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await pullPageActions()).liftLegalHoldAction(
        IDLE,
        form({ pullId: ownPull, holdId: String(ownPullHold), reason: "Matter closed" }),
      ),
  },
  // The consumer request desk: admins only (lib/privacy/erasure.test.ts proves what an erasure leaves).
  {
    name: "admin/privacy/openPrivacyRequestAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await privacyActions()).openPrivacyRequestAction(
        IDLE,
        form({ kind: "ACCESS", receivedOn: new Date().toISOString().slice(0, 10), pullIds: [ownPull] }),
      ),
  },
  {
    name: "admin/privacy/erasePrivacyRequestAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await privacyActions()).erasePrivacyRequestAction(IDLE, form({ requestId: privacy.erasure, confirm: "erase" })),
  },
  {
    name: "admin/privacy/markServiceToldAction",
    allowed: ["admin"],
    writes: true,
    call: async () =>
      (await privacyActions()).markServiceToldAction(IDLE, form({ requestId: privacy.erased, told: "on" })),
  },
  {
    name: "GET /api/privacy/requests/[requestId]/export",
    allowed: ["admin"],
    writes: true /* the audit trail, and the access request answered */,
    call: async () =>
      (await import("@/app/api/privacy/requests/[requestId]/export/route")).GET(
        new Request("http://app/x?format=pdf"),
        { params: Promise.resolve({ requestId: privacy.access }) },
      ),
  },
  {
    name: "GET /api/service-health",
    allowed: ["admin", "manager", "agent", "otherAgent"],
    writes: false,
    call: async () => (await import("@/app/api/service-health/route")).GET(),
  },
];

/** Routes anyone may call, and why: they carry their own protection. */
const PUBLIC = {
  "POST /api/webhooks/service": "called by the service; protected by the webhook signature",
  "GET /api/health": "liveness probe; reveals nothing",
  "GET /api/calendar/[token]":
    "a user's calendar feed for calendar apps; the secret token in the address is the key (stored hashed, revocable, rate-limited; lib/xdates/xdates.test.ts)",
  "GET /api/v1/openapi.json": "the public API's OpenAPI document: describes routes, never data",
  "GET /api/v1/pulls":
    "the public API: an API key with a scope, not a session, is the key (lib/api/guard.ts; lib/api/api.test.ts)",
  "GET /api/v1/pulls/[pull_id]":
    "the public API: an API key with a scope, not a session, is the key (lib/api/guard.ts; lib/api/api.test.ts)",
  "PATCH /api/v1/pulls/[pull_id]":
    "the public API: an API key with a scope, not a session, is the key (lib/api/guard.ts; lib/api/api.test.ts)",
  "GET /api/v1/pulls/[pull_id]/exports/[format]":
    "the public API: an API key with a scope, not a session, is the key (lib/api/guard.ts; lib/api/api.test.ts)",
  "POST /api/v1/pulls/[pull_id]/handoffs":
    "the public API: an API key with the scope handoffs:write, not a session, is the key (lib/api/guard.ts; lib/api/handoffs.test.ts)",
  "POST /api/v1/webhook-endpoints":
    "the public API's outgoing webhooks: an API key with the scope webhooks:write, not a session, is the key (lib/api/guard.ts; lib/webhooks/webhooks.test.ts)",
  "GET /api/v1/webhook-endpoints":
    "the public API's outgoing webhooks: an API key with the scope webhooks:write, not a session, is the key (lib/api/guard.ts; lib/webhooks/webhooks.test.ts)",
  "GET /api/v1/webhook-endpoints/[endpoint_id]":
    "the public API's outgoing webhooks: an API key with the scope webhooks:write, not a session, is the key (lib/api/guard.ts; lib/webhooks/webhooks.test.ts)",
  "DELETE /api/v1/webhook-endpoints/[endpoint_id]":
    "the public API's outgoing webhooks: an API key with the scope webhooks:write, not a session, is the key (lib/api/guard.ts; lib/webhooks/webhooks.test.ts)",
  "POST /api/v1/webhook-endpoints/[endpoint_id]/rotate-secret":
    "the public API's outgoing webhooks: an API key with the scope webhooks:write, not a session, is the key (lib/api/guard.ts; lib/webhooks/webhooks.test.ts)",
  "GET /api/auth/[...nextauth]": "next-auth's own sign-in endpoints",
  "POST /api/sign-in/passkey":
    "sign-in's passkey step: the password is the key, under sign-in's throttle (lib/auth/passkeys.test.ts)",
  "POST /api/auth/[...nextauth]": "next-auth's own sign-in endpoints",
};

// No service answers this test, whatever else runs on the machine (a development sandbox on the
// default port would): an allowed call that needs the service fails at the client and writes nothing.
const savedServiceUrl = process.env.SERVICE_BASE_URL;
process.env.SERVICE_BASE_URL = "http://127.0.0.1:9/api/v1.0.0";
// Nor does AgencyZoom (the development stand-in listens on 4020 by default).
const savedAgencyzoom = [
  process.env.AGENCYZOOM_BASE_URL,
  process.env.AGENCYZOOM_USERNAME,
  process.env.AGENCYZOOM_PASSWORD,
];
process.env.AGENCYZOOM_BASE_URL = "http://127.0.0.1:9";
process.env.AGENCYZOOM_USERNAME = "matrix";
process.env.AGENCYZOOM_PASSWORD = "matrix";

beforeAll(async () => {
  database = await createTestDatabase();
  (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
    connection: Promise.resolve(database),
  };
});
afterAll(async () => {
  await (await import("@/lib/jobs/runner")).stopRunner(1_000);
  await database?.close();
  if (savedServiceUrl === undefined) delete process.env.SERVICE_BASE_URL;
  else process.env.SERVICE_BASE_URL = savedServiceUrl;
  (["AGENCYZOOM_BASE_URL", "AGENCYZOOM_USERNAME", "AGENCYZOOM_PASSWORD"] as const).forEach((name, i) => {
    const saved = savedAgencyzoom[i];
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  });
});
beforeEach(async () => {
  current = null;
  await baseline();
});

describe("authorization matrix", () => {
  for (const entry of MATRIX) {
    for (const who of EVERYONE) {
      const expected: Outcome = entry.allowed.includes(who) ? "allowed" : "denied";
      it(`${entry.name} as ${who}: ${expected}`, async () => {
        current = who === "none" ? null : { id: ids[who] };
        const before = await snapshot();
        const result = await entry.call();
        const after = await snapshot();
        const read = outcomeOf(result);
        if (read !== "unknown") expect(read).toBe(expected);
        if (expected === "denied") expect(after).toBe(before);
        else if (entry.writes) expect(after).not.toBe(before);
      });
    }
  }
});

// With a second factor required, a user who has none may only set one up: every other entry
// the agent could use refuses them and writes nothing (lib/auth/second-factor-requirement.ts).
const ENROLMENT = [
  "account/security/startSecondFactorAction",
  "account/security/confirmSecondFactorAction",
  "account/security/startPasskeyAction",
  "account/security/registerPasskeyAction",
];
/** Entries whose set-up gives the caller a factor (a passkey to remove): not a user without one. */
const GIVES_A_FACTOR = ["account/security/removePasskeyAction"];
/** Entries that make the caller's own row first (a feed to turn off, a set-up to remove): judged by their answer. */
const SETS_UP = ["xdates/turnOffCalendarFeedAction", "account/security/removeSecondFactorAction"];
describe("a user without a second factor while one is required", () => {
  // The consumer's pages (allowed to a stranger too) are guarded by their token, not a session.
  for (const entry of MATRIX.filter(
    (e) => e.allowed.includes("agent") && !e.allowed.includes("none") && !GIVES_A_FACTOR.includes(e.name),
  )) {
    const expected: Outcome = ENROLMENT.includes(entry.name) ? "allowed" : "denied";
    it(`${entry.name}: ${expected}`, async () => {
      await database.db.execute(sql`insert into security_settings (id, second_factor_required) values (1, true)`);
      current = { id: ids.agent };
      const before = await snapshot();
      const result = await entry.call();
      const read = outcomeOf(result);
      if (read !== "unknown") expect(read).toBe(expected);
      if (expected === "denied" && !SETS_UP.includes(entry.name)) expect(await snapshot()).toBe(before);
      if (SETS_UP.includes(entry.name)) expect(read).toBe("denied");
    });
  }
});

describe("exports follow the viewer's scope", () => {
  it("gives an agent their own pulls and the queue, never another agent's", async () => {
    const { GET } = await import("@/app/api/pulls/csv/route");
    current = { id: ids.otherAgent };
    const theirs = await (await GET(new Request("http://app/api/pulls/csv"))).text();
    expect(theirs).toContain(queuePull);
    expect(theirs).not.toContain(ownPull); // assigned to "agent"
    current = { id: ids.manager };
    expect(await (await GET(new Request("http://app/api/pulls/csv"))).text()).toContain(ownPull);
  });

  it("refuses a list CSV with filters that do not parse: 400 before any of the file, nothing on the trail", async () => {
    current = { id: ids.manager };
    const before = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CSV_EXPORTED"));
    for (const [route, url] of [
      [() => import("@/app/api/pulls/csv/route"), "http://app/api/pulls/csv?stage=NOPE"],
      [() => import("@/app/api/xdates/csv/route"), "http://app/api/xdates/csv?range=45"],
      [() => import("@/app/api/cross-sell/csv/route"), "http://app/api/cross-sell/csv?gap=NOT_A_GAP"],
    ] as const) {
      const { GET } = await route();
      const response = await GET(new Request(url));
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).not.toMatch(/csv/);
      expect(await response.json()).toMatchObject({ error: "INVALID_FILTERS" });
    }
    const after = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "CSV_EXPORTED"));
    expect(after).toHaveLength(before.length);
  });

  it("records every export in the audit trail: who, which filters, how many rows", async () => {
    current = { id: ids.manager };
    const pullsCsv = await (
      await (
        await import("@/app/api/pulls/csv/route")
      ).GET(new Request("http://app/api/pulls/csv?q=zzz-nobody&stage=WON"))
    ).text();
    await (
      await import("@/app/api/reports/csv/route")
    ).GET(new Request("http://app/api/reports/csv?table=byAgent&from=2026-01-01"));
    const trail = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "CSV_EXPORTED"))
      .orderBy(auditEvents.id);
    const [pullsExport, reportExport] = trail.slice(-2);
    expect(pullsCsv.trim().split("\r\n")).toHaveLength(1); // the header alone: nothing matched
    expect(pullsExport).toMatchObject({
      actorId: ids.manager,
      details: { export: "pulls", rows: 0, filters: { q: "zzz-nobody", stage: "WON" } },
    });
    expect(reportExport).toMatchObject({
      actorId: ids.manager,
      details: { export: "reports:byAgent", filters: { from: expect.stringMatching(/^2026-01-01/) } },
    });
    expect(typeof (reportExport?.details as { rows?: unknown }).rows).toBe("number");
  });
});

// Offices narrow the matrix: the manager and the agent work in office A, the other agent in B.
// A manager of A may not see, assign or set the stage of B's pulls, nor give A's pulls to B's
// people; an agent of A does not see or take B's queue; an admin reaches every office.
describe("offices narrow the matrix", () => {
  const officeB = "3a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d";
  beforeEach(async () => {
    await database.db.insert(offices).values({ id: officeB, name: "Office B" });
    await database.db.update(users).set({ officeId: MATRIX_OFFICE_ID }).where(eq(users.id, ids.manager));
    await database.db.update(users).set({ officeId: MATRIX_OFFICE_ID }).where(eq(users.id, ids.agent));
    await database.db.update(users).set({ officeId: officeB }).where(eq(users.id, ids.otherAgent));
    // The agent's pull takes their office when (re)assigned; the queue's pull is in B's queue.
    await database.db.update(pulls).set({ assigneeId: null }).where(eq(pulls.pullId, ownPull));
    await database.db.update(pulls).set({ assigneeId: ids.agent }).where(eq(pulls.pullId, ownPull));
    await database.db.update(pulls).set({ officeId: officeB }).where(eq(pulls.pullId, queuePull));
  });
  const refused = async (call: () => Promise<unknown>) => {
    const before = await snapshot();
    expect(outcomeOf(await call())).toBe("denied");
    expect(await snapshot()).toBe(before);
  };

  it("takes the assignee's office onto the pull", async () => {
    const [row] = await database.db.select({ officeId: pulls.officeId }).from(pulls).where(eq(pulls.pullId, ownPull));
    expect(row?.officeId).toBe(MATRIX_OFFICE_ID);
  });

  it("refuses a manager of A B's queue pull: assign, claim-for-self, bulk", async () => {
    current = { id: ids.manager };
    const actions = await pullActions();
    await refused(() => actions.assignPullAction(IDLE, form({ pullId: queuePull, assigneeId: ids.agent })));
    await refused(() => actions.claimPullAction(IDLE, form({ pullId: queuePull })));
    await refused(() => actions.bulkAssignAction(IDLE, form({ pullIds: [ownPull, queuePull], assigneeId: ids.agent })));
  });

  it("refuses a manager of A the stage of a pull of B", async () => {
    await database.db.update(pulls).set({ assigneeId: ids.otherAgent }).where(eq(pulls.pullId, queuePull));
    current = { id: ids.manager };
    await refused(async () =>
      (await pullActions()).setStageAction(IDLE, form({ pullId: queuePull, stage: "WON", premium: "1200" })),
    );
  });

  it("lets a manager of A assign within A only", async () => {
    current = { id: ids.manager };
    const actions = await pullActions();
    await refused(() => actions.assignPullAction(IDLE, form({ pullId: ownPull, assigneeId: ids.otherAgent })));
    expect(outcomeOf(await actions.assignPullAction(IDLE, form({ pullId: ownPull, assigneeId: ids.manager })))).toBe(
      "allowed",
    );
  });

  it("keeps B's queue from an agent of A, and gives it to an agent of B", async () => {
    current = { id: ids.agent };
    await refused(async () => (await pullActions()).claimPullAction(IDLE, form({ pullId: queuePull })));
    const { GET } = await import("@/app/api/pulls/csv/route");
    const listed = await (await GET(new Request("http://app/api/pulls/csv"))).text();
    expect(listed).toContain(ownPull);
    expect(listed).not.toContain(queuePull);
    current = { id: ids.otherAgent };
    expect(outcomeOf(await (await pullActions()).claimPullAction(IDLE, form({ pullId: queuePull })))).toBe("allowed");
  });

  it("lets an admin act on every office", async () => {
    current = { id: ids.admin };
    const actions = await pullActions();
    expect(outcomeOf(await actions.assignPullAction(IDLE, form({ pullId: queuePull, assigneeId: ids.agent })))).toBe(
      "allowed",
    );
    const { GET } = await import("@/app/api/pulls/csv/route");
    const listed = await (await GET(new Request("http://app/api/pulls/csv"))).text();
    expect(listed).toContain(ownPull);
    expect(listed).toContain(queuePull);
  });
});

function filesMatching(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === "node_modules" || entry.startsWith(".")) return [];
    return statSync(full).isDirectory() ? filesMatching(full, test) : test(entry) ? [full] : [];
  });
}

const HTTP_METHODS = "GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS";
const SOURCE = /\.(ts|tsx|js|jsx|mjs)$/;

/** "/api/x/[id]" for app/api/x/[id]/route.ts; route groups like "(app)" are not part of the URL. */
function routeOf(app: string, file: string): string {
  return `/${path
    .relative(app, path.dirname(file))
    .split(path.sep)
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .join("/")}`;
}

/** Every HTTP method a route file exports, in any form: functions, constants, or `export { handler as GET }`. */
function exportedMethods(source: string): string[] {
  const direct = [
    ...source.matchAll(new RegExp(`export (?:async )?(?:function|const|let) (${HTTP_METHODS})\\b`, "g")),
  ].map((m) => m[1] ?? "");
  const renamed = [...source.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
    (m[1] ?? "")
      .split(",")
      .map(
        (part) =>
          part
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? "",
      )
      .filter((name) => new RegExp(`^(${HTTP_METHODS})$`).test(name)),
  );
  return [...direct, ...renamed];
}

/** The functions a "use server" file exports: each one is a public endpoint. */
function exportedActions(source: string): string[] {
  const direct = [...source.matchAll(/export (?:async function|const|let|function) (\w+)/g)].map((m) => m[1] ?? "");
  const renamed = [...source.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
    (m[1] ?? "")
      .split(",")
      .map(
        (part) =>
          part
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? "",
      )
      .filter(Boolean),
  );
  return [...direct, ...renamed];
}

const startsWithUseServer = (source: string) => /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use server["']/.test(source);

describe("the matrix is complete", () => {
  const root = process.cwd();
  const app = path.join(root, "app");
  const sources = ["app", "components", "lib"].flatMap((dir) =>
    filesMatching(path.join(root, dir), (name) => SOURCE.test(name) && !/\.test\./.test(name)),
  );
  const serverFiles = sources.filter((file) => startsWithUseServer(readFileSync(file, "utf8")));
  const actions = serverFiles.flatMap((file) => {
    const area = path
      .relative(app, path.dirname(file))
      .replace(/\(app\)\//, "")
      .replace(/^\(app\)$/, "");
    return exportedActions(readFileSync(file, "utf8")).map((name) => `${area}/${name}`);
  });
  const routes = filesMatching(app, (name) => /^route\.(ts|tsx|js|jsx|mjs)$/.test(name)).flatMap((file) =>
    exportedMethods(readFileSync(file, "utf8")).map((method) => `${method} ${routeOf(app, file)}`),
  );

  it("covers every exported server action and every route handler", () => {
    // The scan itself must find what exists, in each form, or this test would pass on nothing.
    expect(actions).toContain("pulls/setStageAction");
    expect(routes).toContain("POST /api/webhooks/service");
    expect(routes).toContain("POST /api/auth/[...nextauth]"); // exported as `export { handler as POST }`
    const covered = new Set([...MATRIX.map((e) => e.name), ...Object.keys(PUBLIC)]);
    expect([...actions, ...routes].filter((name) => !covered.has(name))).toEqual([]);
  });

  it("has no entry for an action or route that no longer exists", () => {
    const found = new Set([...actions, ...routes]);
    expect([...MATRIX.map((e) => e.name), ...Object.keys(PUBLIC)].filter((name) => !found.has(name))).toEqual([]);
  });

  it('finds server actions only in files that say "use server" at the top, where the scan sees them', () => {
    // An inline "use server" inside a component makes an endpoint this matrix would not list.
    const inline = sources.filter(
      (file) => !serverFiles.includes(file) && /["']use server["']/.test(readFileSync(file, "utf8")),
    );
    expect(inline.map((file) => path.relative(root, file))).toEqual([]);
  });
});
