import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import type { ServiceConfig } from "@/lib/service/client";
import { signPayload } from "@/lib/service/signature";
import { listWebhooks, registerWebhook } from "@/lib/service/webhook-registrations-api";
import {
  checksWebhookSignatures,
  createSigningSecrets,
  MIN_READ_INTERVAL_MS,
  type SigningSecrets,
} from "@/lib/service/webhook-signing-secrets";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { PRODUCTION_ENV } from "@/test/production-env";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import { receiveWebhook, type ReceiveOptions } from "./receive-webhook";

// Deliveries checked against the signing secrets of the team's registrations, as the service
// lists them, with no SERVICE_WEBHOOK_SECRET: each registration signs with its own secret, and
// a webhook made on the service's dashboard is one of them.

const TEAM = "0b7e2a64-51c3-4f0e-8d29-6a1f3c5e7b90";
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig & { teamId: string };

beforeAll(async () => {
  database = await createTestDatabase();
  ({ sandbox, service } = await startServiceSandbox("signing", { teamId: TEAM, seed: 9, pullCount: 2 }));
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

/** A store that counts its reads of GET /webhooks and runs on a clock the test moves. */
function countingSecrets() {
  const clock = { ms: Date.now() };
  const reads = { count: 0 };
  const secrets = createSigningSecrets(
    () => {
      reads.count++;
      return listWebhooks(service);
    },
    { now: () => clock.ms, log: () => {} },
  );
  return { secrets, reads, clock };
}

const event = () => JSON.stringify({ event_type: "COMPLETE", pull_id: randomUUID(), team_id: TEAM, data: {} });
const nowSeconds = () => Math.floor(Date.now() / 1000);
const production = (registrationSecrets: SigningSecrets, signatureHeader: string | null): ReceiveOptions => ({
  webhookSecret: null,
  registrationSecrets,
  requireSignature: true,
  signatureHeader,
});
async function deliver(options: (header: string | null) => ReceiveOptions, secret: string | null, body = event()) {
  const header = secret === null ? null : signPayload(secret, body, nowSeconds());
  return (await receiveWebhook(database.db, body, options(header))).status;
}

describe("webhook signatures checked against the registrations' secrets", () => {
  it("takes deliveries signed by a registration made through the API or on the dashboard, with no setting", async () => {
    const { secrets } = countingSecrets();
    const api = await registerWebhook(service, {
      hookUrl: "https://coverdesk.agency.test/api/webhooks/service",
      eventTypes: ["COMPLETE"],
    });
    const dashboard = await controlSandbox(sandbox, "dashboard/webhooks", {
      url: "https://coverdesk.agency.test/api/webhooks/service",
      eventTypes: ["MONITORING_RECONNECT"],
    });
    const inProduction = (header: string | null) => production(secrets, header);
    expect(await deliver(inProduction, api.signing_secret ?? "")).toBe(202);
    expect(await deliver(inProduction, String(dashboard.signing_secret))).toBe(202);
    expect(await deliver(inProduction, "whsec_someone_else")).toBe(401);
  });

  it("picks up a registration made after the secrets were read, yet reads at most once per interval under forged signatures", async () => {
    const { secrets, reads, clock } = countingSecrets();
    const inProduction = (header: string | null) => production(secrets, header);
    const first = await registerWebhook(service, {
      hookUrl: "https://one.agency.test/hooks",
      eventTypes: ["COMPLETE"],
    });
    expect(await deliver(inProduction, first.signing_secret ?? "")).toBe(202);
    expect(reads.count).toBe(1);

    const later = await registerWebhook(service, {
      hookUrl: "https://two.agency.test/hooks",
      eventTypes: ["COMPLETE"],
    });
    clock.ms += MIN_READ_INTERVAL_MS;
    expect(await deliver(inProduction, later.signing_secret ?? ""), "an unknown signature reads them again").toBe(202);
    expect(reads.count).toBe(2);

    const forged = async () => Promise.all(Array.from({ length: 25 }, () => deliver(inProduction, "whsec_forged")));
    expect(new Set(await forged())).toEqual(new Set([401]));
    expect(reads.count, "none within the interval").toBe(2);
    clock.ms += MIN_READ_INTERVAL_MS;
    expect(new Set(await forged())).toEqual(new Set([401]));
    expect(reads.count, "one for the whole flood once the interval has passed").toBe(3);
    expect(await deliver(inProduction, later.signing_secret ?? "")).toBe(202);
    expect(reads.count).toBe(3);
  });

  it("refuses in production an unsigned delivery, a malformed signature and one older than the allowed age", async () => {
    const { secrets, reads } = countingSecrets();
    const registered = await registerWebhook(service, {
      hookUrl: "https://three.agency.test/hooks",
      eventTypes: ["COMPLETE"],
    });
    const secret = registered.signing_secret ?? "";
    const body = event();
    const answer = async (header: string | null, extra: Partial<ReceiveOptions> = {}) =>
      receiveWebhook(database.db, body, { ...production(secrets, header), ...extra });

    expect(await answer(null)).toMatchObject({
      status: 401,
      body: { error: "INVALID_SIGNATURE", message: "Signature missing." },
    });
    expect((await answer("t=1,s=zz")).status).toBe(401);
    const eightHoursAndASecond = nowSeconds() - 8 * 3600 - 1;
    expect(await answer(signPayload(secret, body, eightHoursAndASecond))).toMatchObject({
      status: 401,
      body: { message: "Signature stale." },
    });
    expect(
      (await answer(signPayload(secret, body, nowSeconds() - 3601), { maxSignatureAgeSeconds: 3600 })).status,
      "SERVICE_WEBHOOK_MAX_AGE_SECONDS bounds it",
    ).toBe(401);
    expect(reads.count, "a missing, malformed or old signature reads nothing").toBe(0);
    expect((await answer(signPayload(secret, body, nowSeconds() - 6 * 3600))).status, "a retry hours later").toBe(202);
  });

  it("still takes SERVICE_WEBHOOK_SECRET, which requires a signature in any mode; zero-setup development checks none", async () => {
    const { secrets, reads } = countingSecrets();
    const withSetting = (header: string | null): ReceiveOptions => ({
      webhookSecret: "whsec_from_the_setting",
      registrationSecrets: secrets,
      signatureHeader: header,
    });
    expect(await deliver(withSetting, "whsec_from_the_setting")).toBe(202);
    expect(reads.count, "the setting's own deliveries need no read").toBe(0);
    expect(await deliver(withSetting, null), "the setting requires a signature in any mode").toBe(401);

    expect(await deliver(withSetting, "whsec_forged")).toBe(401);

    const development = (header: string | null): ReceiveOptions => ({
      webhookSecret: null,
      registrationSecrets: secrets,
      signatureHeader: header,
    });
    expect(await deliver(development, null)).toBe(202);
    expect(await deliver(development, "whsec_unknown")).toBe(202);
    expect(reads.count, "development reads no secrets for deliveries it does not check").toBe(1);
  });

  it("checks signatures in production, and wherever SERVICE_WEBHOOK_SECRET is set", () => {
    const config = (nodeEnv: "development" | "test" | "production", webhookSecret: string | null) =>
      parseEnv({
        ...(nodeEnv === "production" ? PRODUCTION_ENV : {}),
        NODE_ENV: nodeEnv,
        SERVICE_WEBHOOK_SECRET: webhookSecret ?? "",
      });
    expect(checksWebhookSignatures(config("development", null))).toBe(false);
    expect(checksWebhookSignatures(config("test", null))).toBe(false);
    expect(checksWebhookSignatures(config("development", "whsec_set"))).toBe(true);
    expect(checksWebhookSignatures(config("production", null))).toBe(true);
  });
});
