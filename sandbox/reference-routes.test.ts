import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_ROLES,
  agentSchema,
  carrierListResponseSchema,
  carrierResponseSchema,
  DRIVING_RECORD_IQ_STATUSES,
  enrichmentDriverLicenseSchema,
  enrichmentDrivingRecordIqSchema,
  enrichmentHouseholdSchema,
  enrichmentPropertyDataSchema,
  OWNERSHIP_TYPES,
  propertyDataFields,
  termsResponseSchema,
  webhookListResponseSchema,
} from "@/lib/service/schemas";
import { startSandbox, type Sandbox } from "./server";

// The sandbox's simple read routes over real HTTP: terms, carriers, enrichment look-ups,
// webhook registrations and archiving a pull, each with its bad inputs.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const NOW = new Date("2026-06-15T00:00:00Z");
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
const options = { port: 0, clientId: "id", clientSecret: "secret", teamId: TEAM, webhookUrl: null, webhookSecret: null, seed: 42, now: NOW, speed: 0.0001, deliverOnStart: false };
let sandbox: Sandbox;

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: auth }) =>
  fetch(`${sandbox.baseUrl}${path}`, { method, headers: { ...headers, "content-type": "application/json" }, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.error).toBe(error);
  if (error === "INVALID_INPUT") expect(typeof body.message).toBe("string");
}

beforeAll(async () => {
  sandbox = await startSandbox(options);
});
afterAll(async () => {
  await sandbox?.close();
});

describe("public reference routes", () => {
  it("serves the terms of service without credentials", async () => {
    const response = await call("GET", "/tos", undefined, {});
    expect(response.status).toBe(200);
    const terms = termsResponseSchema.parse(await response.json());
    expect(terms.terms_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(terms.terms_html).toContain("<h1>");
    await expectError(await call("POST", "/tos", {}, {}), 405, "METHOD_NOT_ALLOWED");
  });

  it("lists carriers with login placeholders, filtered by products or by link", async () => {
    const all = carrierListResponseSchema.parse(await (await call("GET", "/carriers", undefined, {})).json());
    expect(all.length).toBeGreaterThan(10);
    for (const carrier of all) {
      expect(carrier.username_placeholder).toBeTruthy();
      expect(carrier.password_placeholder).toBeTruthy();
      expect(carrier.products.length).toBeGreaterThan(0);
    }
    expect(all.some((c) => c.third_field_placeholder)).toBe(true);

    const commercial = carrierListResponseSchema.parse(await (await call("GET", "/carriers?products=commercial", undefined, {})).json());
    expect(commercial.length).toBeGreaterThan(0);
    expect(commercial.length).toBeLessThan(all.length);
    expect(commercial.every((c) => c.products.includes("commercial"))).toBe(true);
    const both = carrierListResponseSchema.parse(await (await call("GET", "/carriers?products=personal,commercial", undefined, {})).json());
    expect(both.length).toBeGreaterThanOrEqual(commercial.length);

    const byLink = carrierListResponseSchema.parse(await (await call("GET", "/carriers?public_alias=business-intake", undefined, {})).json());
    expect(byLink.map((c) => c.name).sort()).toEqual(commercial.map((c) => c.name).sort());

    await expectError(await call("GET", "/carriers?products=boats", undefined, {}), 400, "INVALID_INPUT");
    await expectError(await call("GET", "/carriers?products=", undefined, {}), 400, "INVALID_INPUT");
    await expectError(await call("GET", "/carriers?public_alias=no-such-link", undefined, {}), 404, "NOT_FOUND");
  });

  it("serves one carrier by id or by identifier, and 404 for an unknown one", async () => {
    const [first] = carrierListResponseSchema.parse(await (await call("GET", "/carriers", undefined, {})).json());
    const byId = carrierResponseSchema.parse(await (await call("GET", `/carriers/${first?.carrier_id}`, undefined, {})).json());
    expect(byId).toEqual(first);
    const byName = carrierResponseSchema.parse(await (await call("GET", "/carriers/geico", undefined, {})).json());
    expect(byName.friendly_name).toBe("GEICO");
    await expectError(await call("GET", "/carriers/no-such-carrier", undefined, {}), 404, "NOT_FOUND");
    await expectError(await call("GET", "/carriers/%E0%A4%A", undefined, {}), 404, "NOT_FOUND");
  });
});

describe("enrichment look-ups", () => {
  const place = { number: "1200", street: "Maple", type: "AVE", city: "Austin", state: "TX", zip: "78701" };
  const driver = { first_name: "Maria", last_name: "Garcia", date_of_birth_str: "1984-03-09", drivers_license: "D12345678", drivers_license_state: "TX" };

  it("answers the driver-license look-up with the spec's shape, the same way every time", async () => {
    const question = { first_name: "Maria", last_name: "Garcia", date_of_birth_str: "1984-03-09", address: place };
    const first = await json(await call("POST", "/enrich/driver-license", question));
    const again = await json(await call("POST", `/teams/${TEAM}/enrich/driver-license`, question));
    expect(again).toEqual(first);
    const parsed = enrichmentDriverLicenseSchema.parse(first);
    expect(parsed.driver_license).toMatchObject({ first_name: "Maria", last_name: "Garcia", date_of_birth_str: "1984-03-09", drivers_license_state: "TX" });
    expect(Object.keys(first.driver_license as object).sort()).toEqual(["date_of_birth_str", "drivers_license", "drivers_license_state", "first_name", "gender", "last_name", "marital_status", "middle_name"]);
  });

  it("answers the driving-record IQ with a documented status and consistent counts", async () => {
    const statuses = new Set<string>();
    for (const first_name of ["Maria", "James", "Wei", "Aisha", "Carlos", "Linda", "Tom", "Priya"]) {
      const body = await json(await call("POST", "/enrich/driving-record-iq", { ...driver, first_name }));
      const parsed = enrichmentDrivingRecordIqSchema.parse(body);
      const record = parsed.driving_record_iq;
      expect(DRIVING_RECORD_IQ_STATUSES).toContain(record?.status);
      if (record?.status === "CLEAN") expect([record.minor_violations, record.major_violations]).toEqual([0, 0]);
      if (record?.status === "MAJOR_VIOLATIONS") expect(record.major_violations).toBeGreaterThan(0);
      statuses.add(String(record?.status));
    }
    expect(statuses.size).toBeGreaterThan(1);
  });

  it("answers the household look-up with drivers and vehicles", async () => {
    const body = await json(await call("POST", "/enrich/household", { address: place, last_name: "Garcia" }));
    const parsed = enrichmentHouseholdSchema.parse(body);
    expect(parsed.drivers.length).toBeGreaterThan(0);
    expect(parsed.drivers.every((d) => d.last_name === "Garcia")).toBe(true);
    for (const v of parsed.vehicles) {
      expect(v.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      if (v.ownership_type !== null) expect(OWNERSHIP_TYPES).toContain(v.ownership_type);
    }
  });

  it("answers the property-data look-up with every PropertyData field but the ids", async () => {
    const body = await json(await call("POST", "/enrich/property-data", { address: { ...place, sec_unit_type: "APT", sec_unit_num: "4B" } }));
    const parsed = enrichmentPropertyDataSchema.parse(body);
    expect(parsed.address).toMatchObject({ street: "Maple", city: "Austin", state: "TX", zip: "78701", sec_unit_num: "4B" });
    expect(Object.keys(body.data as object).sort()).toEqual(Object.keys(propertyDataFields).sort());
    expect(Object.keys(body.address as object)).not.toContain("address_id");
  });

  it("answers from the seeded book when it knows the person or the address", async () => {
    type Row = Record<string, unknown>;
    const rows = (v: unknown) => (Array.isArray(v) ? (v as Row[]) : []);
    const pulls = [...sandbox.state.pulls.values()];
    const withCar = pulls.find((p) => rows(p.policies).some((x) => x.policy_type === "AUTO" && rows(x.vehicles).length > 0) && rows(p.drivers).length > 0);
    const mailing = rows(withCar?.addresses).find((a) => a.address_nature === "MAILING");
    const holder = rows(withCar?.drivers)[0];
    if (!withCar || !mailing || !holder) throw new Error("no seeded household");
    const place = { number: mailing.number, street: mailing.street, city: mailing.city, state: mailing.state, zip: mailing.zip };

    const license = enrichmentDriverLicenseSchema.parse(await json(await call("POST", "/enrich/driver-license", { first_name: holder.first_name, last_name: holder.last_name, date_of_birth_str: holder.date_of_birth_str })));
    expect(license.driver_license).toMatchObject({ drivers_license: holder.drivers_license, drivers_license_state: holder.drivers_license_state, gender: holder.gender });

    const home = enrichmentHouseholdSchema.parse(await json(await call("POST", "/enrich/household", { address: place })));
    expect(home.drivers.map((d) => d.drivers_license).sort()).toEqual(rows(withCar.drivers).map((d) => d.drivers_license).sort());
    const vins = rows(withCar.policies).flatMap((x) => rows(x.vehicles)).filter((v) => v.is_removed !== true).map((v) => v.vin);
    expect(home.vehicles.map((v) => v.vin).sort()).toEqual([...vins].sort());

    const dwelling = pulls.flatMap((p) => rows(p.policies)).flatMap((x) => rows(x.dwellings)).find((d) => d.property_data !== null);
    const at = dwelling?.address as Row | undefined;
    if (!dwelling || !at) throw new Error("no seeded dwelling");
    const property = await json(await call("POST", "/enrich/property-data", { address: { number: at.number, street: at.street, city: at.city, state: at.state, zip: at.zip } }));
    const { property_data_id: _id, dwelling_id: _dwelling, ...expected } = dwelling.property_data as Row;
    expect(property.data).toEqual(expected);
  });

  it("answers 404 NOT_FOUND for the no-record scenario and for unknown look-ups", async () => {
    await expectError(await call("POST", "/enrich/driver-license", { first_name: "A", last_name: "Nobody" }), 404, "NOT_FOUND");
    await expectError(await call("POST", "/enrich/driving-record-iq", { ...driver, last_name: "Nobody" }), 404, "NOT_FOUND");
    await expectError(await call("POST", "/enrich/household", { address: { ...place, zip: "00000" } }), 404, "NOT_FOUND");
    await expectError(await call("POST", "/enrich/property-data", { address: { ...place, zip: "00000" } }), 404, "NOT_FOUND");
    await expectError(await call("POST", "/enrich/credit-score", {}), 404, "NOT_FOUND");
  });

  it("refuses bad input with 400 INVALID_INPUT, a wrong method with 405, and no credentials with 401", async () => {
    const bad: Array<[string, unknown]> = [
      ["driver-license", {}],
      ["driver-license", { first_name: "", last_name: "Garcia" }],
      ["driver-license", { first_name: "Maria", last_name: "Garcia", date_of_birth_str: "03/09/1984" }],
      ["driver-license", "{not json"],
      ["driver-license", [1, 2]],
      ["driving-record-iq", { ...driver, drivers_license_state: "Texas" }],
      ["driving-record-iq", { ...driver, date_of_birth_str: undefined }],
      ["household", { last_name: "Garcia" }],
      ["household", { address: { ...place, zip: "7870" } }],
      ["property-data", { address: { ...place, state: "tx" } }],
      ["property-data", { address: { ...place, street: 12 } }],
      ["property-data", { address: { ...place, prefix: "NNE" } }],
    ];
    for (const [lookup, body] of bad) await expectError(await call("POST", `/enrich/${lookup}`, body), 400, "INVALID_INPUT");
    await expectError(await call("GET", "/enrich/household"), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call("POST", "/enrich/household", { address: place }, {}), 401, "UNAUTHORIZED");
  });
});

describe("webhook registrations", () => {
  it("registers, lists, updates and deletes a webhook", async () => {
    const created = await call("POST", `/teams/${TEAM}/webhooks`, { hookUrl: "https://agency.example.com/hooks", eventTypes: ["COMPLETE", "MONITORING_RECONNECT", "COMPLETE"] });
    expect(created.status).toBe(200);
    const { webhook_id: id, signing_secret: secret } = (await created.json()) as { webhook_id: string; signing_secret: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(secret.length).toBeGreaterThan(20);

    const list = webhookListResponseSchema.parse(await (await call("GET", "/webhooks")).json());
    const listed = list.find((w) => w.webhook_id === id);
    expect(listed).toMatchObject({ hookUrl: "https://agency.example.com/hooks", eventTypes: ["COMPLETE", "MONITORING_RECONNECT"], signing_secret: null });

    const patched = await json(await call("PATCH", `/webhooks/${id}`, { eventTypes: ["AUTH_STATUS"] }));
    expect(patched).toMatchObject({ success: true, webhook: { webhook_id: id, hookUrl: "https://agency.example.com/hooks", eventTypes: ["AUTH_STATUS"] } });

    expect(await json(await call("DELETE", `/webhooks/${id}`))).toEqual({ success: true });
    await expectError(await call("DELETE", `/webhooks/${id}`), 404, "NOT_FOUND");
    expect(webhookListResponseSchema.parse(await (await call("GET", "/webhooks")).json()).some((w) => w.webhook_id === id)).toBe(false);
  });

  it("refuses bad registrations and unknown ids", async () => {
    for (const body of [{}, { hookUrl: "not a url", eventTypes: ["COMPLETE"] }, { hookUrl: "ftp://x.example.com", eventTypes: ["COMPLETE"] }, { hookUrl: "https://x.example.com", eventTypes: [] }, { hookUrl: "https://x.example.com", eventTypes: ["NOPE"] }, "{"]) {
      await expectError(await call("POST", "/webhooks", body), 400, "INVALID_INPUT");
    }
    const { webhook_id: id } = (await (await call("POST", "/webhooks", { hookUrl: "https://x.example.com", eventTypes: ["ERROR"] })).json()) as { webhook_id: string };
    await expectError(await call("PATCH", `/webhooks/${id}`, {}), 400, "INVALID_INPUT");
    await expectError(await call("PATCH", `/webhooks/${id}`, { hookUrl: "nope" }), 400, "INVALID_INPUT");
    await expectError(await call("PATCH", "/webhooks/00000000-0000-4000-8000-000000000000", { eventTypes: ["ERROR"] }), 404, "NOT_FOUND");
    await expectError(await call("PATCH", "/webhooks/nope", { eventTypes: ["ERROR"] }), 404, "NOT_FOUND");
    await expectError(await call("PUT", "/webhooks"), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call("GET", "/webhooks", undefined, {}), 401, "UNAUTHORIZED");
  });
});

describe("team agents", () => {
  it("lists the agency's agents, who are the assignees of pulls", async () => {
    const response = await call("GET", `/teams/${TEAM}/agents`);
    expect(response.status).toBe(200);
    const { agents } = (await response.json()) as { agents: unknown[] };
    const parsed = agents.map((a) => agentSchema.parse(a));
    expect(parsed.length).toBeGreaterThan(1);
    for (const agent of parsed) expect(AGENT_ROLES).toContain(agent.role);
    const ids = new Set(parsed.map((a) => a.agent_id));
    const assignees = [...sandbox.state.pulls.values()].map((p) => (p.funnel as { assignee: { agent_id: string } | null } | null)?.assignee).filter((a) => a !== null && a !== undefined);
    expect(assignees.length).toBeGreaterThan(0);
    for (const a of assignees) expect(ids.has(a.agent_id)).toBe(true);
    await expectError(await call("POST", "/agents", {}), 405, "METHOD_NOT_ALLOWED");
    await expectError(await call("GET", "/agents", undefined, {}), 401, "UNAUTHORIZED");
  });
});

describe("archiving a pull", () => {
  it("sets is_archived with PATCH and serves it back", async () => {
    const id = [...sandbox.state.pulls.keys()][0] ?? "";
    expect(await json(await call("PATCH", `/teams/${TEAM}/pulls/${id}`, { is_archived: true }))).toEqual({ success: true });
    const served = (await json(await call("GET", `/pulls/${id}`))) as { pull: { is_archived: boolean } };
    expect(served.pull.is_archived).toBe(true);
    expect(await json(await call("PATCH", `/pulls/${id}`, { is_archived: false }))).toEqual({ success: true });
    expect(((await json(await call("GET", `/pulls/${id}`))) as { pull: { is_archived: boolean } }).pull.is_archived).toBe(false);
  });

  it("refuses a bad body with 400 INVALID_INPUT and an unknown pull with 400 NOT_FOUND", async () => {
    const id = [...sandbox.state.pulls.keys()][0] ?? "";
    for (const body of [{}, { is_archived: "yes" }, { is_archived: true, funnel: { stage: "WON" } }, "{", [true]]) {
      await expectError(await call("PATCH", `/pulls/${id}`, body), 400, "INVALID_INPUT");
    }
    await expectError(await call("PATCH", "/pulls/00000000-0000-4000-8000-000000000000", { is_archived: true }), 400, "NOT_FOUND");
    await expectError(await call("PATCH", "/pulls/nope", { is_archived: true }), 400, "NOT_FOUND");
    await expectError(await call("DELETE", `/pulls/${id}`), 405, "METHOD_NOT_ALLOWED");
  });
});
