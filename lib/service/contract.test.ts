import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import type { ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import {
  chooseVerificationOption,
  connectPull,
  consentAndConnect,
  exchangeReconnectToken,
  submitVerificationCode,
} from "./link-api";
import {
  disableMonitoring,
  enableMonitoring,
  getMonitoring,
  getMonitoringEvents,
  getMonitoringReconnectToken,
  listMonitorings,
  refreshMonitoring,
  updateMonitoring,
} from "./monitorings-api";
import { getPull, iteratePulls } from "./pulls-api";

// Contract tests: the client against the sandbox over real HTTP. Every answer goes through the
// client's schemas, which throw on an unusable answer; the sandbox follows the spec, so no
// answer may raise a single payload problem either.

const TEAM = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "contract",
    clientSecret: "contract-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 17,
    pullCount: 60,
    speed: 0.0005,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "contract",
    clientSecret: "contract-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
  };
});
afterAll(async () => {
  await sandbox?.close();
});

/** Polls a pull until it reaches one of `statuses`. */
async function statusOf(pullId: string, statuses: string[]): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { value } = await getPull(service, pullId);
    if (value.status && statuses.includes(value.status)) return value.status;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`pull ${pullId} never reached ${statuses.join("/")}`);
}

describe("service contract", () => {
  it("serves every seeded pull in a shape the schemas read without a single problem", async () => {
    let count = 0;
    for await (const listed of iteratePulls(service, { pageSize: 25 })) {
      const { value, problems } = await getPull(service, listed.pull_id);
      expect(problems, `pull ${value.pull_id}`).toEqual([]);
      count++;
    }
    expect(count).toBe(60);
  });

  it("links an account with a second factor through the whitelabel steps", async () => {
    const session = await consentAndConnect(service, {
      device_identifier: "device-1",
      terms_version: 2,
      consent_language: "I agree",
      public_alias: "get-a-quote",
      insurerName: "progressive",
      insurerUsername: "user_mfa",
      insurerPassword: "pass_good",
      meta_data: { lead: "L-1", score: 7 },
    });
    expect(await statusOf(session.pull_id, ["IDENTITY_VERIFICATION_OPTIONS"])).toBe("IDENTITY_VERIFICATION_OPTIONS");
    // A step at the wrong moment is INVALID_ACTION; each step answers the pull id (connect in its envelope).
    await expect(submitVerificationCode(service, session, "123456")).rejects.toMatchObject({
      status: 400,
      code: "INVALID_ACTION",
    });
    expect(await chooseVerificationOption(service, session, "sms-0")).toBe(session.pull_id);
    await statusOf(session.pull_id, ["IDENTITY_VERIFICATION"]);
    await submitVerificationCode(service, session, "000000"); // the sandbox's wrong code
    expect(await statusOf(session.pull_id, ["IDENTITY_VERIFICATION", "SUCCESS"])).toBe("IDENTITY_VERIFICATION");
    await submitVerificationCode(service, session, "482913");
    expect(await statusOf(session.pull_id, ["SUCCESS", "NOT_AUTHENTICATED"])).toBe("SUCCESS");
    const { value, problems } = await getPull(service, session.pull_id);
    expect(problems).toEqual([]);
    expect(value.policies.length).toBeGreaterThan(0);
    expect(value.meta_data).toEqual({ lead: "L-1", score: 7 });
  });

  it("refuses a step with another pull's token, and bad credentials end as not authenticated", async () => {
    const link = {
      device_identifier: "device-2",
      terms_version: 2,
      consent_language: "I agree",
      public_alias: "get-a-quote",
      insurerName: "geico",
    };
    const refused = await consentAndConnect(service, {
      ...link,
      insurerUsername: "someone_else",
      insurerPassword: "nope",
    });
    const other = await consentAndConnect(service, {
      ...link,
      insurerUsername: "user_good",
      insurerPassword: "pass_good",
    });
    expect(await statusOf(refused.pull_id, ["NOT_AUTHENTICATED"])).toBe("NOT_AUTHENTICATED");
    const failure = await connectPull(
      service,
      { pull_id: refused.pull_id, pull_jwt: other.pull_jwt },
      { insurerName: "geico", insurerUsername: "user_good", insurerPassword: "pass_good" },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ status: 403, code: "UNAUTHORIZED" });
    // insurerName is a carrier id: the display name is refused before anything changes.
    await expect(
      connectPull(service, refused, {
        insurerName: "GEICO",
        insurerUsername: "user_good",
        insurerPassword: "pass_good",
      }),
    ).rejects.toMatchObject({ status: 400, code: "UNSUPPORTED_INSURER" });
    expect((await getPull(service, refused.pull_id)).value.status).toBe("NOT_AUTHENTICATED");
    // With its own token, new credentials take the pull to success.
    expect(
      await connectPull(service, refused, {
        insurerName: "geico",
        insurerUsername: "user_good",
        insurerPassword: "pass_good",
      }),
    ).toBe(refused.pull_id);
    expect(await statusOf(refused.pull_id, ["SUCCESS"])).toBe("SUCCESS");
  });

  it("runs a monitoring through enable, change, refresh, reconnect and stop", async () => {
    const session = await consentAndConnect(service, {
      device_identifier: "device-3",
      terms_version: 2,
      consent_language: "I agree",
      public_alias: "renewal-review",
      insurerName: "allstate",
      insurerUsername: "user_good",
      insurerPassword: "pass_good",
    });
    await statusOf(session.pull_id, ["SUCCESS"]);
    const enabled = await enableMonitoring(service, { pull_id: session.pull_id, interval: "P1M" });
    expect(enabled.problems).toEqual([]);
    expect(enabled.value).toMatchObject({ status: "ACTIVE", interval: "P1M", latest_pull_id: session.pull_id });
    const id = enabled.value.monitoring_id;

    expect((await updateMonitoring(service, id, { interval: "P3M" })).value.interval).toBe("P3M");
    expect(
      (await listMonitorings(service, { pull_id: session.pull_id })).value.monitorings.map((m) => m.monitoring_id),
    ).toEqual([id]);

    const refreshedPullId = await refreshMonitoring(service, id);
    expect(refreshedPullId).not.toBe(session.pull_id);
    await statusOf(refreshedPullId, ["SUCCESS"]);
    const detail = await getMonitoring(service, id, { withPulls: true });
    expect(detail.problems).toEqual([]);
    expect(detail.value.pulls.map((p) => p.pull_id)).toContain(refreshedPullId);
    const events = await getMonitoringEvents(service, id);
    expect(events.problems).toEqual([]);
    expect(events.value).toMatchObject({ previous_pull_id: session.pull_id, latest_pull_id: refreshedPullId });
    expect(events.value.events.length).toBeGreaterThan(0);

    const token = await getMonitoringReconnectToken(service, id);
    expect(token.value.reconnect_token).toEqual(expect.any(String));
    const reconnect = await exchangeReconnectToken(service, token.value.reconnect_token ?? "");
    expect(reconnect.pull_jwt).toEqual(expect.any(String));

    expect((await disableMonitoring(service, id)).value.status).toBe("STOPPED");
    await expect(refreshMonitoring(service, id)).rejects.toMatchObject({ status: 400, code: "MONITORING_INACTIVE" });
    await expect(getMonitoring(service, "mon-does-not-exist")).rejects.toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
  });
});
