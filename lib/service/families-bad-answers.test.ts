import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { getPolicyCheckReport, getPolicyCheckSettings, runPolicyCheck } from "./policy-check-api";
import { getPolicyFormDownloadUrl } from "./policy-forms-api";
import { searchPolicy, type PolicySearchInput } from "./policy-search-api";
import { confirmServicingAction, getServicing, listServicings, requestServicing } from "./servicings-api";
import { createWidget, getWidget, listWidgets } from "./widgets-api";

// The new calls against a service that answers badly: a missing field, a wrong type, an error
// body. Only what a call is for may fail it (as INVALID_RESPONSE); an odd field reads as null
// and is reported; an error body becomes a ServiceError with the service's code.

const PULL = "0f0e0d0c-0b0a-4909-8807-060504030201";
const WIDGET = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
type Canned = { status: number; body: unknown; headers?: Record<string, string> };
let answers = new Map<string, Canned>();
let server: Server;
let service: ServiceConfig;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
      .replace(/^\/api\/v1\.0\.0\/teams\/team-1/, "")
      .replace(/^\/api\/v1\.0\.0/, "");
    const canned = answers.get(`${req.method} ${path}`) ?? { status: 404, body: { error: "NOT_FOUND" } };
    const text = typeof canned.body === "string" ? canned.body : JSON.stringify(canned.body);
    req.resume();
    res.writeHead(canned.status, { "content-type": "application/json", ...canned.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0.0`,
    teamId: "team-1",
    clientId: "id",
    clientSecret: "secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 2,
  };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answers = new Map();
});

const answer = (route: string, body: unknown, status = 200, headers?: Record<string, string>) =>
  answers.set(route, { status, body, headers });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const invalid = { name: "ServiceError", code: "INVALID_RESPONSE", retryable: false };
const session = { pull_id: PULL, pull_jwt: "a.b.c" };
const search: PolicySearchInput = {
  device_identifier: "d",
  terms_version: 1,
  consent_language: "ok",
  public_alias: "a",
  insurerName: "usaa",
  searchType: "AUTO_POLICY",
  searchData: { vin: "1G2ZG558964193639" },
};

describe("bad answers of the new calls", () => {
  it("fails a call only when what it is for is missing", async () => {
    answer("GET /widgets", { success: true });
    answer(`GET /widgets/${WIDGET}`, { success: true });
    answer("POST /servicings", { pull_id: PULL, servicing_action_ids: ["s-1"] });
    answer("GET /servicings/s-1", { type: "ADD_MORTGAGEE", status: "QUEUED" });
    answer("GET /servicings", { total_servicings: 1, servicings: "none" });
    answer(`POST /pulls/${PULL}/policyCheck`, { success: true });
    answer(`GET /pulls/${PULL}/policyCheck/pdf`, { success: true });
    answer("POST /policySearch", { pull_jwt: "a.b.c" });
    answer(`POST /widget/pull/${PULL}/servicingAction`, {});
    answer("GET /policyForms/form-1", { note: "no url" }, 302);
    const calls: Array<[string, () => Promise<unknown>]> = [
      ["listWidgets", () => listWidgets(service)],
      ["getWidget", () => getWidget(service, WIDGET)],
      [
        "requestServicing",
        () =>
          requestServicing(service, {
            pull_id: PULL,
            servicing_actions: [
              { type: "REMOVE_MORTGAGEE", payload: { carrier_policy_number: "HO1", mortgagee_type: "FIRST" } },
            ],
          }),
      ],
      ["getServicing", () => getServicing(service, "s-1")],
      ["listServicings", () => listServicings(service)],
      ["runPolicyCheck", () => runPolicyCheck(service, PULL, { policy_check_settings: {} })],
      ["getPolicyCheckReport", () => getPolicyCheckReport(service, PULL)],
      ["searchPolicy", () => searchPolicy(service, search)],
      ["confirmServicingAction", () => confirmServicingAction(service, session, "s-1", true)],
      ["getPolicyFormDownloadUrl", () => getPolicyFormDownloadUrl(service, "form-1")],
    ];
    for (const [name, call] of calls) {
      const error = await failure(call());
      expect(error, name).toBeInstanceOf(ServiceError);
      expect(error, name).toMatchObject(invalid);
    }
  });

  it("reads odd fields as null and reports each, keeping unknown enum values silently", async () => {
    answer("GET /widgets", {
      success: true,
      widgets: [
        {
          widget_id: WIDGET,
          brand_color_hex: 405,
          is_sandbox: "yes",
          agents: [{ agent_id: "a-1", role: "OWNER" }, { email: "no id" }],
        },
        { public_alias: "no id" },
      ],
    });
    const list = await listWidgets(service);
    expect(list.value.widgets).toHaveLength(1);
    expect(list.value.widgets[0]).toMatchObject({
      widget_id: WIDGET,
      brand_color_hex: null,
      is_sandbox: null,
      company_name: null,
      agents: [{ agent_id: "a-1", role: "OWNER" }],
    });
    expect(list.problems.map((p) => `${p.path} ${p.kind}`).sort()).toEqual([
      "widgets[0].agents[1] dropped_item",
      "widgets[0].brand_color_hex wrong_type",
      "widgets[0].is_sandbox wrong_type",
      "widgets[1] dropped_item",
    ]);

    answer("GET /servicings/s-1", {
      servicing: {
        servicing_action_id: "s-1",
        type: "CANCEL_POLICY",
        status: "PAUSED",
        payload: "x",
        confirmation_data: null,
      },
    });
    const action = await getServicing(service, "s-1");
    expect(action.value).toMatchObject({
      servicing_action_id: "s-1",
      type: "CANCEL_POLICY",
      status: "PAUSED",
      payload: null,
      confirmation_data: null,
      validation_error_type: null,
    });
    expect(action.problems.map((p) => `${p.path} ${p.kind}`)).toEqual(["payload wrong_type"]);

    answer("GET /servicings", { total_servicings: "three", servicings: [] });
    expect((await listServicings(service)).value.total_servicings).toBeNull();

    // The published example: no wrapper, the misspelled key, and an odd dwelling set.
    answer("GET /policyChecks/settings", {
      success: true,
      vehicle: {
        POLICY_NOT_ACTIVE: true,
        MAX_COMPREEHENSIVE_DEDUCTIBLE_CENTS: 50_000,
        MIN_BODILY_INJURY_COVERAGE: { per_person_cents: null, per_accident_cents: 30_000_000 },
      },
      dwelling: "none",
    });
    const settings = await getPolicyCheckSettings(service);
    expect(settings.value.vehicle).toMatchObject({
      POLICY_NOT_ACTIVE: true,
      MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: 50_000,
      MIN_BODILY_INJURY_COVERAGE: { per_accident_cents: 30_000_000 },
      LIENHOLDER_NAME_MISMATCH: [],
    });
    expect(settings.value.dwelling).toBeNull();
    expect(settings.problems.map((p) => p.path)).toEqual(["dwelling"]);

    answer(`POST /pulls/${PULL}/policyCheck`, {
      success: true,
      pull: { pull_id: PULL, policy_check_status: "NONE", policy_check_results: 5 },
    });
    const checked = await runPolicyCheck(service, PULL, { policy_check_settings: {} });
    expect(checked.value).toMatchObject({ policy_check_status: "NONE", policy_check_results: null });
    expect(checked.problems.map((p) => `${p.path} ${p.kind}`)).toEqual(["policy_check_results wrong_type"]);
  });

  it("turns an error body into a ServiceError with the service's code", async () => {
    answer("POST /widgets", { error: "WIDGET_LIMIT_EXCEEDED", message: "The plan allows 10 links." }, 400);
    expect(await failure(createWidget(service, {}))).toMatchObject({
      status: 400,
      code: "WIDGET_LIMIT_EXCEEDED",
      retryable: false,
      message: "POST /widgets: 400 WIDGET_LIMIT_EXCEEDED (The plan allows 10 links.)",
    });
    answer("GET /widgets", "<html>bad gateway</html>", 502);
    expect(await failure(listWidgets(service))).toMatchObject({ status: 502, code: "HTTP_502", retryable: true });
    answer(`GET /pulls/${PULL}/policyCheck/pdf`, { error: "FORBIDDEN" }, 403);
    expect(await failure(getPolicyCheckReport(service, PULL))).toMatchObject({ status: 403, code: "FORBIDDEN" });
  });
});
