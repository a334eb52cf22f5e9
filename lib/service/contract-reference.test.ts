import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { getCarrier, listCarriers } from "./carriers-api";
import type { ServiceConfig } from "./client";
import { getAnswerFileDownloadUrl, getDocumentDownloadUrl } from "./downloads-api";
import { lookUpDriverLicense, lookUpDrivingRecord, lookUpHousehold, lookUpPropertyData } from "./enrichment-api";
import { getTerms, giveConsent } from "./link-api";
import { getPull, iteratePulls, setPullArchived } from "./pulls-api";
import { getServiceHealth } from "./service-health-api";
import { deleteWebhook, listWebhooks, registerWebhook, updateWebhook } from "./webhook-registrations-api";

// Contract tests, part two: downloads, archive, terms and consent, health, carriers, webhook
// registration and the enrichment look-ups, against the sandbox over real HTTP, in the
// published shapes of service-notes.

const TEAM = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    clientId: "ref",
    clientSecret: "ref-secret",
    teamId: TEAM,
    webhookUrl: null,
    webhookSecret: null,
    seed: 23,
    pullCount: 40,
    speed: 0.001,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "ref",
    clientSecret: "ref-secret",
    timeoutMs: 2_000,
    retryBaseMs: 1,
  };
});
afterAll(async () => {
  await sandbox?.close();
});

describe("service contract: documents, archive and reference data", () => {
  it("turns a document and an uploaded file into signed URLs on the storage host that serve PDFs without credentials", async () => {
    type Ref = { pullId: string; downloadUrl: string | null };
    let document: (Ref & { documentId: string }) | null = null;
    let upload: (Ref & { answerId: string; fileId: string }) | null = null;
    for await (const pull of iteratePulls(service)) {
      const doc = pull.documents[0];
      if (!document && doc)
        document = { pullId: pull.pull_id, documentId: doc.document_id, downloadUrl: doc.download_url };
      for (const section of pull.answers) {
        for (const field of section.fields) {
          const file = Array.isArray(field.value) ? field.value[0] : undefined;
          if (!upload && file)
            upload = {
              pullId: pull.pull_id,
              answerId: field.consumer_flow_section_field_id,
              fileId: file.file_id,
              downloadUrl: file.download_url,
            };
        }
      }
    }
    if (!document?.downloadUrl || !upload?.downloadUrl)
      throw new Error("the sandbox book has no document or no upload");
    for (const url of [
      await getDocumentDownloadUrl(service, document),
      await getDocumentDownloadUrl(service, { ...document, downloadUrl: null }), // the documented route
      await getAnswerFileDownloadUrl(service, upload),
    ]) {
      expect(new URL(url).origin).toBe(sandbox.storageUrl);
      expect(new URL(url).origin).not.toBe(new URL(service.baseUrl).origin);
      const response = await fetch(url);
      expect(response.headers.get("content-type")).toContain("application/pdf");
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
    }
    await expect(
      getDocumentDownloadUrl(service, { ...document, documentId: "no-such-document", downloadUrl: null }),
    ).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("archives and restores a pull", async () => {
    const [first] = [...sandbox.state.pulls.keys()];
    await setPullArchived(service, first ?? "", true);
    expect((await getPull(service, first ?? "")).value.is_archived).toBe(true);
    await setPullArchived(service, first ?? "", false);
    expect((await getPull(service, first ?? "")).value.is_archived).toBe(false);
  });

  it("reads the terms with an integer version, records consent with it, and reads the service's health", async () => {
    const terms = await getTerms(service);
    expect(Number.isInteger(terms.terms_version)).toBe(true);
    expect(
      await giveConsent(service, {
        device_identifier: "d-1",
        terms_version: terms.terms_version,
        consent_language: "I agree",
      }),
    ).toEqual(expect.any(String));
    // A numeric string is sent as the integer it names; anything else is refused before any call.
    expect(
      await giveConsent(service, {
        device_identifier: "d-2",
        terms_version: String(terms.terms_version),
        consent_language: "I agree",
      }),
    ).toEqual(expect.any(String));
    await expect(
      giveConsent(service, { device_identifier: "d-3", terms_version: "v2", consent_language: "I agree" }),
    ).rejects.toThrow(/terms_version/);
    expect(await getServiceHealth(service)).toEqual({ healthy: true });
    sandbox.state.faults = { ...sandbox.state.faults, errorRate: 1 };
    try {
      expect(await getServiceHealth(service)).toEqual({ healthy: false });
    } finally {
      sandbox.state.faults = { ...sandbox.state.faults, errorRate: 0 };
    }
  });

  it("lists carriers in the published shape, filtered, and reads one by its id", async () => {
    const all = await listCarriers(service);
    expect(all.length).toBeGreaterThan(10);
    const usaa = all.find((c) => c.carrier_id === "usaa");
    expect(usaa).toMatchObject({
      name: "USAA",
      thirdFieldPlaceholder: expect.any(String),
      thirdFieldValidatorRgx: expect.any(String),
      thirdFieldValidatorError: expect.any(String),
      disablePasswordField: false,
      products: ["personal"],
    });
    expect(all.find((c) => c.carrier_id === "geico")).toMatchObject({
      thirdFieldPlaceholder: null,
      thirdFieldValidatorRgx: null,
      subIssuerOf: null,
      servicingActions: ["ADD_VEHICLE"],
    });
    expect(all.some((c) => c.disablePasswordField === true)).toBe(true);
    const commercial = await listCarriers(service, { products: ["commercial"] });
    expect(commercial.length).toBeGreaterThan(0);
    expect(commercial.length).toBeLessThan(all.length);
    expect((await listCarriers(service, { products: ["personal", "commercial"] })).length).toBe(all.length);
    expect((await listCarriers(service, { public_alias: "business-intake" })).map((c) => c.carrier_id).sort()).toEqual(
      commercial.map((c) => c.carrier_id).sort(),
    );
    const first = commercial[0];
    expect(await getCarrier(service, first?.carrier_id ?? "")).toEqual(first);
    await expect(getCarrier(service, "no-such-carrier")).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("registers, changes, lists and removes a webhook, refusing dashboard-only event types before any call", async () => {
    const created = await registerWebhook(service, {
      hookUrl: "https://agency.example.com/api/webhooks/service",
      eventTypes: ["COMPLETE", "AUTH_STATUS"],
    });
    expect(created.signing_secret).toEqual(expect.any(String));
    const listed = (await listWebhooks(service)).find((w) => w.webhook_id === created.webhook_id);
    expect(listed).toMatchObject({
      url: "https://agency.example.com/api/webhooks/service",
      signing_secret: created.signing_secret,
      is_active: true,
      is_sandbox: true,
      event_types: ["COMPLETE", "AUTH_STATUS"],
    });
    await updateWebhook(service, created.webhook_id, { eventTypes: ["COMPLETE"], isActive: false });
    expect((await listWebhooks(service)).find((w) => w.webhook_id === created.webhook_id)).toMatchObject({
      is_active: false,
      event_types: ["COMPLETE"],
    });
    await deleteWebhook(service, created.webhook_id);
    expect((await listWebhooks(service)).map((w) => w.webhook_id)).not.toContain(created.webhook_id);
    await expect(deleteWebhook(service, created.webhook_id)).rejects.toMatchObject({ status: 400, code: "NOT_FOUND" });
    await expect(updateWebhook(service, "not-a-webhook-id", { isActive: true })).rejects.toMatchObject({
      status: 400,
      code: "INVALID_WEBHOOK_ID",
    });

    const before = (await listWebhooks(service)).length;
    await expect(
      registerWebhook(service, { hookUrl: "https://agency.example.com/hooks", eventTypes: ["ERROR"] }),
    ).rejects.toThrow(/cannot be set through the API/);
    await expect(registerWebhook(service, { hookUrl: "ftp://nope", eventTypes: ["COMPLETE"] })).rejects.toThrow();
    await expect(
      updateWebhook(service, "00000000-0000-4000-8000-000000000000", { eventTypes: ["MONITORING_EVENTS"] }),
    ).rejects.toThrow(/cannot be set through the API/);
    expect((await listWebhooks(service)).length).toBe(before);
  });

  it("looks up a property, a driver's license, a driving record and a household with query parameters", async () => {
    const address = "12 Main ST, Austin, TX 78701";
    const purpose = {
      purpose: "INSURANCE_UNDERWRITING",
      employee_name: "Dana Whitfield",
      employee_job_function: "Licensed agent",
    };
    const person = { first_name: "Ana", last_name: "Ruiz", address, ...purpose };
    const property = await lookUpPropertyData(service, { address });
    expect(property.address).toMatchObject({ number: "12", street: "Main", type: "ST", zip: "78701" });
    expect(property.data).not.toBeNull();
    const license = await lookUpDriverLicense(service, { ...person, date_of_birth_str: "04/02/1988" });
    expect(license.driver_license).toMatchObject({
      last_name: "Ruiz",
      date_of_birth_str: "04/02/1988",
      drivers_license_state: "TX",
    });
    const record = await lookUpDrivingRecord(service, {
      ...person,
      drivers_license: "D1234567",
      drivers_license_state: "TX",
    });
    expect(record.driving_record_iq_id).toEqual(expect.any(String));
    expect(record.driving_record_iq?.status).toEqual(expect.any(String));
    const household = await lookUpHousehold(service, { ...person, lookup_vehicles: true });
    expect(household.household_id).toEqual(expect.any(String));
    expect(household.drivers.length).toBeGreaterThan(0);
    expect((await lookUpHousehold(service, { ...person, lookup_vehicles: false })).vehicles).toEqual([]);

    await expect(lookUpPropertyData(service, { address: "1 Main ST, Nowhere, TX 00000" })).rejects.toMatchObject({
      status: 404,
      code: "NO_PROPERTY_DATA",
    });
    await expect(lookUpPropertyData(service, { address: "somewhere" })).rejects.toMatchObject({
      status: 400,
      code: "INVALID_ADDRESS",
    });
    await expect(
      lookUpDriverLicense(service, { ...person, last_name: "Nobody", date_of_birth_str: "04/02/1988" }),
    ).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
    // Refused before any call: a date not written MM/DD/YYYY, a missing purpose, neither a birth date nor a licence.
    await expect(lookUpDriverLicense(service, { ...person, date_of_birth_str: "1988-04-02" })).rejects.toThrow(
      /MM\/DD\/YYYY/,
    );
    await expect(lookUpHousehold(service, { ...person, purpose: "" })).rejects.toThrow();
    await expect(lookUpDrivingRecord(service, person)).rejects.toThrow(/date of birth, or a license/);
  });
});
