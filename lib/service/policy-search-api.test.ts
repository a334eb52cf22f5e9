import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { startServiceSandbox } from "@/test/service-sandbox";
import { startReceiver, types, type Receiver } from "@/sandbox/test-receiver";
import type { ServiceConfig } from "./client";
import { searchPolicy, type PolicySearchInput } from "./policy-search-api";
import { getPull } from "./pulls-api";

// Credential-less policy search against the sandbox over real HTTP: a search makes a
// POLICY_LOOKUP pull that completes like a link (same webhooks, COMPLETE last), and the
// documented refusals: lookup data that fits no form, an unknown link, no plan, a service fault.

const TEAM = "9d4a5b6c-7f8e-4d9c-bbaa-998877665544";
let sandbox: Sandbox;
let receiver: Receiver;
let service: ServiceConfig;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ sandbox, service } = await startServiceSandbox("ps", {
    teamId: TEAM,
    seed: 43,
    pullCount: 12,
    webhookUrl: receiver.url,
  }));
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const search: PolicySearchInput = {
  device_identifier: "124.321.213.111",
  terms_version: 1,
  consent_language: "By clicking Continue you agree to the terms.",
  public_alias: "get-a-quote",
  insurerName: "progressive",
  searchType: "AUTO_POLICY",
  searchData: { vin: "1G2ZG558964193639" },
  meta_data: { lead: 7 },
};

describe("policy search contract", () => {
  it("finds one policy: a POLICY_LOOKUP pull that completes like a link", async () => {
    const session = await searchPolicy(service, search);
    expect(String(session.pull_jwt).split(".")).toHaveLength(3);
    const hooks = await receiver.waitForEvent(session.pull_id, "COMPLETE");
    expect(types(hooks)).toEqual(["POLICY_AVAILABLE", "POLICIES_AVAILABLE", "COMPLETE"]);
    const { value, problems } = await getPull(service, session.pull_id);
    expect(problems).toEqual([]);
    expect(value).toMatchObject({
      status: "SUCCESS",
      type: "POLICY_LOOKUP",
      insurance_provider_name: "progressive",
      public_alias: "get-a-quote",
      meta_data: { lead: 7 },
      account_identifier: null,
    });
    expect(value.policies.map((p) => p.policy_type)).toEqual(["AUTO"]);

    const home = await searchPolicy(service, {
      ...search,
      public_alias: "renewal-review",
      insurerName: "usaa",
      searchType: "HOME_POLICY",
      searchData: { streetAddress: "123 Main Street", zipCode: "90210", policyNumber: "12345678" },
    });
    await receiver.waitForEvent(home.pull_id, "COMPLETE");
    expect((await getPull(service, home.pull_id)).value.policies.map((p) => p.policy_type)).toEqual(["HOMEOWNERS"]);
  });

  it("answers the documented errors", async () => {
    const misfits: Array<Record<string, string>> = [
      { policyNumber: "12345678" },
      { vin: "1G2ZG558964193639", color: "red" },
      { streetAddress: "1 Main St", zipCode: "90210", policyNumber: "1" },
    ];
    for (const searchData of misfits) {
      expect(await failure(searchPolicy(service, { ...search, searchData })), JSON.stringify(searchData)).toMatchObject(
        { status: 400, code: "INVALID_POLICY_LOOKUP_DATA" },
      );
    }
    expect(await failure(searchPolicy(service, { ...search, public_alias: "no-such-link" }))).toMatchObject({
      status: 400,
      code: "INVALID_PUBLIC_ALIAS",
    });
    const fault = await failure(
      searchPolicy(service, {
        ...search,
        searchType: "AUTO_ID_CARD",
        searchData: { policyNumber: "12345678", zipCode: "00000" },
      }),
    );
    // Marked retryable by its status, but the client sends a search once only (it may have started).
    expect(fault).toMatchObject({ status: 500, code: "INTERNAL_ERROR", retryable: true });

    // terms_version is an integer; the client will not send it as text.
    await expect(searchPolicy(service, { ...search, terms_version: "1" as unknown as number })).rejects.toThrow();
    const raw = await fetch(`${sandbox.baseUrl}/teams/${TEAM}/policySearch`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("ps:ps-secret").toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ ...search, terms_version: "1" }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: "INVALID_INPUT" });

    await fetch(`${sandbox.url}/_sandbox/plan`, {
      method: "POST",
      body: JSON.stringify({ policySearch: false }),
      headers: { "content-type": "application/json" },
    });
    expect(await failure(searchPolicy(service, search))).toMatchObject({ status: 403, code: "FORBIDDEN" });
    await fetch(`${sandbox.url}/_sandbox/plan`, {
      method: "POST",
      body: JSON.stringify({ policySearch: true }),
      headers: { "content-type": "application/json" },
    });
  });
});
