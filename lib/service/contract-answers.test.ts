import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getCarrier, listCarriers } from "./carriers-api";
import type { ServiceConfig } from "./client";
import { lookUpDriverLicense, lookUpDrivingRecord, lookUpHousehold, lookUpPropertyData } from "./enrichment-api";
import { ServiceError } from "./errors";
import {
  chooseVerificationOption,
  connectPull,
  consentAndConnect,
  getTerms,
  giveConsent,
  submitVerificationCode,
} from "./link-api";
import { getServiceHealth } from "./service-health-api";
import { deleteWebhook, listWebhooks, registerWebhook, updateWebhook } from "./webhook-registrations-api";

// The calls of service-notes against a stand-in that answers whatever a test tells it to, over
// real HTTP: what each call sends (path, method, query, body, casing, types), the older answer
// shapes it still reads, and the answers it must refuse with a clear ServiceError.

type Seen = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};
type Canned = { status: number; body: unknown };

let server: Server;
let service: ServiceConfig;
let answers = new Map<string, Canned>();
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub");
      const path = url.pathname.replace(/^\/api\/v1\.0\.0/, "");
      seen.push({
        method: req.method ?? "",
        path,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const canned = answers.get(`${req.method} ${path}`) ?? { status: 404, body: { error: "NOT_FOUND" } };
      res.writeHead(canned.status, { "content-type": "application/json" });
      res.end(typeof canned.body === "string" ? canned.body : JSON.stringify(canned.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0.0`,
    teamId: "team-1",
    clientId: "client",
    clientSecret: "secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    maxAttempts: 1,
  };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answers = new Map();
  seen = [];
});

const answer = (route: string, status: number, body: unknown) => answers.set(route, { status, body });
const bodyOf = (index = -1) => JSON.parse(seen.at(index)?.body ?? "null") as Record<string, unknown>;
async function expectInvalidAnswer(call: Promise<unknown>, mentions: RegExp) {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceError);
  expect(error).toMatchObject({ code: "INVALID_RESPONSE", retryable: false });
  expect((error as ServiceError).message).toMatch(mentions);
}

const PULL = "5a0e4c1b-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
const SESSION = { pull_id: PULL, pull_jwt: "a.b.c" };
const CARRIER = {
  carrier_id: "usaa",
  name: "USAA",
  usernameFieldPlaceholder: "Online ID",
  thirdFieldPlaceholder: "PIN",
  thirdFieldValidatorRgx: "^\\d{4}$",
  thirdFieldValidatorRgxFlags: "",
  thirdFieldValidatorError: "Four digits.",
  color: "#002B5C",
  homepageUrl: "https://www.usaa.com",
  createAccountUrl: "https://www.usaa.com/join",
  resetPasswordUrl: "https://www.usaa.com/reset",
  disablePasswordField: false,
  servicingActions: ["ADD_VEHICLE"],
  products: ["personal"],
};

describe("consent and the whitelabel steps", () => {
  it("sends terms_version as an integer and meta_data as an object, and reads a numeric-string version", async () => {
    answer("GET /tos", 200, { terms_version: "3", terms_html: "<p>terms</p>" });
    expect(await getTerms(service)).toMatchObject({ terms_version: 3 });
    answer("POST /consent", 200, { consent_token: "cst_1" });
    await giveConsent(service, { device_identifier: "d", terms_version: 3, consent_language: "I agree" });
    expect(bodyOf()).toEqual({ device_identifier: "d", terms_version: 3, consent_language: "I agree" });
    answer("POST /widget/pull/consentAndConnect", 200, SESSION);
    await consentAndConnect(service, {
      device_identifier: "d",
      terms_version: "3",
      consent_language: "I agree",
      public_alias: "get-a-quote",
      insurerName: "statefarm",
      insurerUsername: "u",
      insurerPassword: "p",
      meta_data: { lead: 1 },
    });
    expect(bodyOf()).toMatchObject({ terms_version: 3, insurerName: "statefarm", meta_data: { lead: 1 } });
    expect(seen.at(-1)?.path).toBe("/widget/pull/consentAndConnect");
  });

  it("refuses a terms answer without a version or with one that is not an integer", async () => {
    answer("GET /tos", 200, { terms_html: "<p>terms</p>" });
    await expectInvalidAnswer(getTerms(service), /terms_version: is missing/);
    answer("GET /tos", 200, { terms_version: "v3", terms_html: "<p>terms</p>" });
    await expectInvalidAnswer(getTerms(service), /terms_version: expected an integer version/);
    answer("GET /tos", 200, { terms_version: 1.5 });
    await expectInvalidAnswer(getTerms(service), /terms_version/);
  });

  it("reads the pull id from connect's envelope and from the bare shape, on all three steps", async () => {
    for (const body of [{ pull: { pull_id: PULL }, shouldPoll: true }, { pull_id: PULL }]) {
      for (const step of ["connect", "idvoptions", "idv"]) answer(`POST /widget/pull/${PULL}/${step}`, 200, body);
      expect(
        await connectPull(service, SESSION, { insurerName: "statefarm", insurerUsername: "u", insurerPassword: "p" }),
      ).toBe(PULL);
      expect(await chooseVerificationOption(service, SESSION, "sms-0")).toBe(PULL);
      expect(await submitVerificationCode(service, SESSION, "123456")).toBe(PULL);
    }
    const connect = seen.find((s) => s.path.endsWith("/connect"));
    expect(connect?.headers["pull-jwt"]).toBe("a.b.c");
    expect(connect?.headers.authorization).toBeUndefined();
    expect(JSON.parse(connect?.body ?? "{}")).toEqual({
      insurerName: "statefarm",
      insurerUsername: "u",
      insurerPassword: "p",
    });
  });

  it("refuses a step answer without a pull id, and passes the service's error code on", async () => {
    answer(`POST /widget/pull/${PULL}/connect`, 200, { pull: {}, shouldPoll: true });
    await expectInvalidAnswer(
      connectPull(service, SESSION, { insurerName: "statefarm", insurerUsername: "u" }),
      /pull_id: is missing/,
    );
    answer(`POST /widget/pull/${PULL}/connect`, 200, { pull: { pull_id: 42.5 } });
    await expectInvalidAnswer(
      connectPull(service, SESSION, { insurerName: "statefarm", insurerUsername: "u" }),
      /pull_id/,
    );
    answer(`POST /widget/pull/${PULL}/connect`, 400, { error: "UNSUPPORTED_INSURER" });
    await expect(
      connectPull(service, SESSION, { insurerName: "State Farm", insurerUsername: "u" }),
    ).rejects.toMatchObject({ status: 400, code: "UNSUPPORTED_INSURER" });
  });
});

describe("carriers", () => {
  it("asks without credentials, with products comma-separated, and reads the published shape keeping unknown keys", async () => {
    answer("GET /carriers", 200, [CARRIER, { carrier_id: "geico", name: "GEICO", futureKey: 1 }]);
    const [usaa, geico] = await listCarriers(service, { products: ["personal", "commercial"] });
    expect(seen.at(-1)?.query).toEqual({ products: "personal,commercial" });
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    expect(usaa).toEqual({ ...CARRIER, subIssuerOf: null });
    // Missing keys read as null or empty; unknown ones are kept.
    expect(geico).toMatchObject({
      carrier_id: "geico",
      name: "GEICO",
      thirdFieldPlaceholder: null,
      disablePasswordField: null,
      servicingActions: [],
      products: [],
      futureKey: 1,
    });
    await listCarriers(service, { public_alias: "get-a-quote" });
    expect(seen.at(-1)?.query).toEqual({ public_alias: "get-a-quote" });
  });

  it("reads the older `{ carriers }` wrapper, drops a carrier without an id, and refuses a list that is not one", async () => {
    answer("GET /carriers", 200, { carriers: [CARRIER, { name: "No id" }] });
    expect((await listCarriers(service)).map((c) => c.carrier_id)).toEqual(["usaa"]);
    answer("GET /carriers", 200, { error: "nope" });
    await expectInvalidAnswer(listCarriers(service), /expected a list/);
    answer("GET /carriers/usaa", 200, { ...CARRIER, carrier_id: undefined });
    await expectInvalidAnswer(getCarrier(service, "usaa"), /carrier_id: is missing/);
  });
});

describe("webhook registrations", () => {
  it("sends camelCase bodies to the team routes and reads the snake_case answers", async () => {
    answer("POST /teams/team-1/webhooks", 200, { webhook_id: "w-1", signing_secret: "whsec_1" });
    expect(
      await registerWebhook(service, {
        hookUrl: "https://a.example.com/h",
        eventTypes: ["COMPLETE", "VALIDATION_COMPLETE"],
      }),
    ).toEqual({ webhook_id: "w-1", signing_secret: "whsec_1" });
    expect(bodyOf()).toEqual({ hookUrl: "https://a.example.com/h", eventTypes: ["COMPLETE", "VALIDATION_COMPLETE"] });
    answer("PATCH /teams/team-1/webhooks/w-1", 200, { success: true });
    await updateWebhook(service, "w-1", { isActive: false });
    expect(bodyOf()).toEqual({ isActive: false });
    answer("DELETE /teams/team-1/webhooks/w-1", 200, { success: true });
    await deleteWebhook(service, "w-1");
    answer("GET /teams/team-1/webhooks", 200, {
      webhooks: [
        {
          webhook_id: "w-1",
          signing_secret: "s",
          url: "https://a.example.com/h",
          is_sandbox: false,
          is_active: true,
          event_types: ["COMPLETE", "ERROR"],
        },
      ],
    });
    expect(await listWebhooks(service)).toEqual([
      {
        webhook_id: "w-1",
        signing_secret: "s",
        url: "https://a.example.com/h",
        is_sandbox: false,
        is_active: true,
        event_types: ["COMPLETE", "ERROR"],
      },
    ]);
  });

  it("refuses dashboard-only event types before any call", async () => {
    await expect(
      registerWebhook(service, {
        hookUrl: "https://a.example.com/h",
        eventTypes: ["COMPLETE", "MONITORING_RECONNECT"],
      }),
    ).rejects.toThrow(/MONITORING_RECONNECT cannot be set through the API/);
    await expect(updateWebhook(service, "w-1", { eventTypes: ["DATA_UPDATED"] })).rejects.toThrow(
      /cannot be set through the API/,
    );
    expect(seen).toEqual([]);
  });

  it("refuses a registration without its secret, a list that is not one, and success: false", async () => {
    answer("POST /teams/team-1/webhooks", 200, { webhook_id: "w-1" });
    await expectInvalidAnswer(
      registerWebhook(service, { hookUrl: "https://a.example.com/h", eventTypes: ["COMPLETE"] }),
      /signing_secret: is missing/,
    );
    answer("GET /teams/team-1/webhooks", 200, { webhooks: "none" });
    await expectInvalidAnswer(listWebhooks(service), /expected a list/);
    answer("PATCH /teams/team-1/webhooks/w-1", 200, { success: false });
    await expect(updateWebhook(service, "w-1", { isActive: true })).rejects.toMatchObject({ code: "NOT_CONFIRMED" });
    answer("PATCH /teams/team-1/webhooks/w-1", 400, { error: "INVALID_IS_ACTIVE" });
    await expect(updateWebhook(service, "w-1", { isActive: true })).rejects.toMatchObject({
      status: 400,
      code: "INVALID_IS_ACTIVE",
    });
  });
});

describe("enrichment", () => {
  const purpose = { purpose: "INSURANCE_UNDERWRITING", employee_name: "Dana", employee_job_function: "Agent" };
  const person = { first_name: "Ana", last_name: "Ruiz", address: "12 Main ST, Austin, TX 78701", ...purpose };

  it("asks with GET and query parameters on the camelCase team paths, never with a body", async () => {
    answer("GET /teams/team-1/enrich/propertyData", 200, { address: { zip: "78701" }, data: {} });
    answer("GET /teams/team-1/enrich/driverLicense", 200, {
      driver_license_id: "dl-1",
      driver_license: { first_name: "Ana", last_name: "Ruiz" },
    });
    answer("GET /teams/team-1/enrich/drivingRecordIq", 200, {
      driving_record_iq_id: "dr-1",
      driving_record_iq: { status: "CLEAN" },
    });
    answer("GET /teams/team-1/enrich/household", 200, {
      household_id: "h-1",
      drivers: [],
      vehicles: [{ vin: "1HGCM82633A004352", ownership_type: "OWN" }],
    });
    await lookUpPropertyData(service, { address: person.address });
    await lookUpDriverLicense(service, { ...person, date_of_birth_str: "04/02/1988" });
    expect(
      (await lookUpDrivingRecord(service, { ...person, drivers_license: "D1234567", drivers_license_state: "TX" }))
        .driving_record_iq,
    ).toMatchObject({ status: "CLEAN", minor_violations: 0, major_violations: 0 });
    expect((await lookUpHousehold(service, { ...person, lookup_vehicles: true })).vehicles[0]).toMatchObject({
      ownership_type: "OWN",
      year: null,
    });
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ["GET", "/teams/team-1/enrich/propertyData", ""],
      ["GET", "/teams/team-1/enrich/driverLicense", ""],
      ["GET", "/teams/team-1/enrich/drivingRecordIq", ""],
      ["GET", "/teams/team-1/enrich/household", ""],
    ]);
    expect(seen[0]?.query).toEqual({ address: "12 Main ST, Austin, TX 78701" });
    expect(seen[1]?.query).toEqual({ ...person, date_of_birth_str: "04/02/1988" });
    expect(seen[3]?.query).toMatchObject({ lookup_vehicles: "true", employee_job_function: "Agent" });
  });

  it("refuses an answer without its id or with the resource of the wrong type, and passes 404 NO_PROPERTY_DATA on", async () => {
    answer("GET /teams/team-1/enrich/driverLicense", 200, { driver_license: { first_name: "Ana" } });
    await expectInvalidAnswer(
      lookUpDriverLicense(service, { ...person, date_of_birth_str: "04/02/1988" }),
      /driver_license_id: is missing/,
    );
    answer("GET /teams/team-1/enrich/household", 200, { household_id: ["h"], drivers: [] });
    await expectInvalidAnswer(lookUpHousehold(service, person), /household_id/);
    answer("GET /teams/team-1/enrich/propertyData", 404, { error: "NO_PROPERTY_DATA" });
    await expect(lookUpPropertyData(service, { address: person.address })).rejects.toMatchObject({
      status: 404,
      code: "NO_PROPERTY_DATA",
    });
  });
});

describe("health", () => {
  it("reads 200 {healthy:true} and 500 {healthy:false} without credentials, and refuses anything else", async () => {
    answer("GET /health", 200, { healthy: true });
    expect(await getServiceHealth(service)).toEqual({ healthy: true });
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    answer("GET /health", 500, { healthy: false });
    expect(await getServiceHealth(service)).toEqual({ healthy: false });
    answer("GET /health", 200, { healthy: "yes" });
    await expectInvalidAnswer(getServiceHealth(service), /healthy: expected true or false/);
    answer("GET /health", 200, { ok: true });
    await expectInvalidAnswer(getServiceHealth(service), /healthy: is missing/);
  });
});
