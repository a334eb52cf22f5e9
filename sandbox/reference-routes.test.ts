import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierListResponseSchema, carrierResponseSchema, termsResponseSchema } from "@/lib/service/schemas";
import { startSandbox, type Sandbox } from "./server";

// The sandbox's simple routes over real HTTP, each with its bad inputs: terms, carriers and
// health as published, team authentication, archiving a pull, and the routes the service
// does not have. Enrichment and webhook registrations have files of their own.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const NOW = new Date("2026-06-15T00:00:00Z");
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
const options = {
  port: 0,
  clientId: "id",
  clientSecret: "secret",
  teamId: TEAM,
  webhookUrl: null,
  webhookSecret: null,
  seed: 42,
  now: NOW,
  speed: 0.0001,
  deliverOnStart: false,
};
let sandbox: Sandbox;

const call = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: auth },
) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.error).toBe(error);
  if (error === "INVALID_INPUT" || error === "VALIDATION_ERROR") expect(typeof body.message).toBe("string");
}

/** Every key a published carrier may have; the last four only when they apply. */
const CARRIER_KEYS = [
  "carrier_id",
  "name",
  "usernameFieldPlaceholder",
  "thirdFieldPlaceholder",
  "color",
  "homepageUrl",
  "createAccountUrl",
  "resetPasswordUrl",
  "disablePasswordField",
  "servicingActions",
  "products",
];
const OPTIONAL_CARRIER_KEYS = [
  "thirdFieldValidatorRgx",
  "thirdFieldValidatorRgxFlags",
  "thirdFieldValidatorError",
  "subIssuerOf",
];

beforeAll(async () => {
  sandbox = await startSandbox(options);
});
afterAll(async () => {
  await sandbox?.close();
});

describe("public reference routes", () => {
  it("serves the terms of service without credentials, with an integer version", async () => {
    const response = await call("GET", "/tos", undefined, {});
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Number.isInteger(body.terms_version)).toBe(true);
    expect(termsResponseSchema.parse(body).terms_html).toContain("<h1>");
    await expectError(await call("POST", "/tos", {}, {}), 405, "METHOD_NOT_ALLOWED");
  });

  it("lists carriers as a bare array in the published camelCase shape, filtered by products or by link", async () => {
    const response = await call("GET", "/carriers", undefined, {});
    const raw = (await response.json()) as Array<Record<string, unknown>>;
    expect(Array.isArray(raw)).toBe(true);
    expect(raw.length).toBeGreaterThan(10);
    for (const carrier of raw) {
      for (const key of CARRIER_KEYS) expect(carrier, String(carrier.carrier_id)).toHaveProperty(key);
      expect(
        Object.keys(carrier).filter((k) => !CARRIER_KEYS.includes(k) && !OPTIONAL_CARRIER_KEYS.includes(k)),
      ).toEqual([]);
      expect(carrier.carrier_id).toMatch(/^[a-z]+$/);
      expect(carrier.name).not.toBe(carrier.carrier_id);
      expect(typeof carrier.disablePasswordField).toBe("boolean");
      expect((carrier.products as string[]).every((p) => p === "personal" || p === "commercial")).toBe(true);
      expect(
        (carrier.servicingActions as string[]).every((a) =>
          ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE"].includes(a),
        ),
      ).toBe(true);
      // A third field comes with its placeholder; a validator only with a third field, and with its message.
      if (carrier.thirdFieldPlaceholder === null) expect(carrier).not.toHaveProperty("thirdFieldValidatorRgx");
      if (carrier.thirdFieldValidatorRgx !== undefined)
        expect(carrier.thirdFieldValidatorError).toEqual(expect.any(String));
    }
    const withValidator = raw.filter((c) => typeof c.thirdFieldValidatorRgx === "string");
    expect(withValidator.length).toBeGreaterThan(1);
    for (const c of withValidator)
      expect(
        () => new RegExp(String(c.thirdFieldValidatorRgx), String(c.thirdFieldValidatorRgxFlags ?? "")),
      ).not.toThrow();
    expect(raw.some((c) => c.thirdFieldPlaceholder === null)).toBe(true);
    expect(raw.some((c) => c.disablePasswordField === true)).toBe(true);
    expect(raw.some((c) => (c.servicingActions as string[]).length > 0)).toBe(true);
    expect(
      raw
        .filter((c) => typeof c.subIssuerOf === "string")
        .every((c) => raw.some((parent) => parent.carrier_id === c.subIssuerOf)),
    ).toBe(true);
    const all = carrierListResponseSchema.parse(raw);

    const commercial = carrierListResponseSchema.parse(
      await (await call("GET", "/carriers?products=commercial", undefined, {})).json(),
    );
    expect(commercial.length).toBeGreaterThan(0);
    expect(commercial.length).toBeLessThan(all.length);
    expect(commercial.every((c) => c.products.includes("commercial"))).toBe(true);
    const both = carrierListResponseSchema.parse(
      await (await call("GET", "/carriers?products=personal,commercial", undefined, {})).json(),
    );
    expect(both.length).toBe(all.length);

    const byLink = carrierListResponseSchema.parse(
      await (await call("GET", "/carriers?public_alias=business-intake", undefined, {})).json(),
    );
    expect(byLink.map((c) => c.carrier_id).sort()).toEqual(commercial.map((c) => c.carrier_id).sort());

    // A list route: bad query parameters are VALIDATION_ERROR.
    await expectError(await call("GET", "/carriers?products=boats", undefined, {}), 400, "VALIDATION_ERROR");
    await expectError(await call("GET", "/carriers?products=", undefined, {}), 400, "VALIDATION_ERROR");
    await expectError(await call("GET", "/carriers?products=agent", undefined, {}), 400, "VALIDATION_ERROR");
    await expectError(await call("GET", "/carriers?public_alias=no-such-link", undefined, {}), 404, "NOT_FOUND");
  });

  it("serves one carrier, bare, by its id only; a display name or an unknown id is 404", async () => {
    const all = (await (await call("GET", "/carriers", undefined, {})).json()) as Array<Record<string, unknown>>;
    const first = all[0];
    const byId = await json(await call("GET", `/carriers/${String(first?.carrier_id)}`, undefined, {}));
    expect(byId).toEqual(first);
    expect(
      carrierResponseSchema.parse(await (await call("GET", "/carriers/statefarm", undefined, {})).json()),
    ).toMatchObject({ carrier_id: "statefarm", name: "State Farm" });
    await expectError(await call("GET", "/carriers/State%20Farm", undefined, {}), 404, "NOT_FOUND");
    await expectError(await call("GET", "/carriers/no-such-carrier", undefined, {}), 404, "NOT_FOUND");
    await expectError(await call("GET", "/carriers/%E0%A4%A", undefined, {}), 404, "NOT_FOUND");
  });

  it("answers /health with 200 {healthy: true}, and 500 {healthy: false} while told to fail", async () => {
    const up = await call("GET", "/health", undefined, {});
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ healthy: true });
    sandbox.state.faults = { ...sandbox.state.faults, errorRate: 1 };
    try {
      const down = await call("GET", "/health", undefined, {});
      expect(down.status).toBe(500);
      expect(await down.json()).toEqual({ healthy: false });
    } finally {
      sandbox.state.faults = { ...sandbox.state.faults, errorRate: 0 };
    }
    await expectError(await call("POST", "/health", {}, {}), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("team authentication", () => {
  const id = () => [...sandbox.state.pulls.keys()][0] ?? "";
  const headers = (clientId: string, secret: string) => ({
    "x-canopy-client-id": clientId,
    "x-canopy-client-secret": secret,
  });

  it("accepts the x-canopy-client-* headers beside Basic; with the headers present, Basic is ignored", async () => {
    expect((await call("GET", `/teams/${TEAM}/pulls/${id()}`, undefined, headers("id", "secret"))).status).toBe(200);
    expect((await call("GET", `/teams/${TEAM}/pulls/${id()}`)).status).toBe(200);
    // Wrong headers fail even beside a valid Basic header; right headers win over a wrong one.
    await expectError(
      await call("GET", `/teams/${TEAM}/pulls/${id()}`, undefined, { ...headers("id", "wrong"), authorization: auth }),
      401,
      "UNAUTHORIZED",
    );
    await expectError(
      await call("GET", `/teams/${TEAM}/pulls/${id()}`, undefined, { "x-canopy-client-id": "id", authorization: auth }),
      401,
      "UNAUTHORIZED",
    );
    const wrongBasic = `Basic ${Buffer.from("id:nope").toString("base64")}`;
    expect(
      (
        await call("GET", `/teams/${TEAM}/pulls/${id()}`, undefined, {
          ...headers("id", "secret"),
          authorization: wrongBasic,
        })
      ).status,
    ).toBe(200);
    await expectError(await call("GET", `/teams/${TEAM}/pulls/${id()}`, undefined, {}), 401, "UNAUTHORIZED");
  });
});

describe("routes the service does not have", () => {
  it("answers 404 for an agents endpoint: agents exist only on widgets", async () => {
    await expectError(await call("GET", "/agents"), 404, "NOT_FOUND");
    await expectError(await call("GET", `/teams/${TEAM}/agents`), 404, "NOT_FOUND");
  });
});

describe("listing pulls", () => {
  it("refuses bad query parameters with 400 VALIDATION_ERROR", async () => {
    for (const query of ["limit=0", "limit=101", "offset=-1", "since=yesterday"])
      await expectError(await call("GET", `/teams/${TEAM}/pulls?${query}`), 400, "VALIDATION_ERROR");
  });
});

describe("archiving a pull", () => {
  it("sets is_archived with PATCH and serves it back", async () => {
    const id = [...sandbox.state.pulls.keys()][0] ?? "";
    expect(await json(await call("PATCH", `/teams/${TEAM}/pulls/${id}`, { is_archived: true }))).toEqual({
      success: true,
    });
    const served = (await json(await call("GET", `/teams/${TEAM}/pulls/${id}`))) as { pull: { is_archived: boolean } };
    expect(served.pull.is_archived).toBe(true);
    expect(await json(await call("PATCH", `/teams/${TEAM}/pulls/${id}`, { is_archived: false }))).toEqual({
      success: true,
    });
    expect(
      ((await json(await call("GET", `/teams/${TEAM}/pulls/${id}`))) as { pull: { is_archived: boolean } }).pull
        .is_archived,
    ).toBe(false);
  });

  it("refuses a bad body with 400 INVALID_INPUT; an unknown pull is 404 NOT_FOUND on PATCH, 400 on GET", async () => {
    const id = [...sandbox.state.pulls.keys()][0] ?? "";
    for (const body of [{}, { is_archived: "yes" }, { is_archived: true, funnel: { stage: "WON" } }, "{", [true]]) {
      await expectError(await call("PATCH", `/teams/${TEAM}/pulls/${id}`, body), 400, "INVALID_INPUT");
    }
    await expectError(
      await call("PATCH", `/teams/${TEAM}/pulls/00000000-0000-4000-8000-000000000000`, { is_archived: true }),
      404,
      "NOT_FOUND",
    );
    await expectError(await call("PATCH", `/teams/${TEAM}/pulls/nope`, { is_archived: true }), 404, "NOT_FOUND");
    await expectError(await call("GET", `/teams/${TEAM}/pulls/00000000-0000-4000-8000-000000000000`), 400, "NOT_FOUND");
    await expectError(await call("DELETE", `/teams/${TEAM}/pulls/${id}`), 405, "METHOD_NOT_ALLOWED");
  });
});
