import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERNAME } from "./seed";
import { startAgencyZoomSandbox, type AgencyZoomSandbox } from "./server";

// The AgencyZoom stand-in over real HTTP: it must refuse what AgencyZoom refuses, or a client
// that passes here could fail against the real API.

let az: AgencyZoomSandbox;
beforeAll(async () => {
  az = await startAgencyZoomSandbox({ port: 0 });
});
afterAll(async () => {
  await az.close();
});
beforeEach(() => {
  az.leads.clear();
});

const VALID = {
  firstname: "Clark",
  lastname: "Kent",
  email: "clark@example.com",
  leadSourceId: 7001,
  assignTo: 3001,
  country: "US",
  pipelineId: 5001,
  stageId: 50011,
};

async function login(username = DEMO_USERNAME, password = DEMO_PASSWORD): Promise<Response> {
  return fetch(`${az.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
}

async function token(): Promise<string> {
  return ((await (await login()).json()) as { jwt: string }).jwt;
}

const post = (path: string, body: unknown, jwt?: string) =>
  fetch(`${az.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
    body: JSON.stringify(body),
  });

describe("the AgencyZoom stand-in", () => {
  it("signs in the configured user with a JWT, and refuses a wrong password with 401", async () => {
    const ok = await login();
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { jwt: string }).jwt.split(".")).toHaveLength(3);
    const wrong = await login(DEMO_USERNAME, "not-it");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status: 401 });
  });

  it("refuses every other call without a bearer token, or with a forged or expired one", async () => {
    expect((await post("/v1/api/leads/create", VALID)).status).toBe(401);
    expect((await post("/v1/api/leads/create", VALID, "a.b.c")).status).toBe(401);
    const jwt = await token();
    az.expireTokens();
    const expired = await post("/v1/api/leads/create", VALID, jwt);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ name: "Unauthorized", status: 401 });
    expect((await post("/v1/api/leads/create", VALID, await token())).status).toBe(201);
    expect(az.leads.size).toBe(1);
  });

  it("creates a new lead for every valid body: its create is not idempotent", async () => {
    const jwt = await token();
    const first = await post("/v1/api/leads/create", VALID, jwt);
    const second = await post("/v1/api/leads/create", VALID, jwt);
    expect(first.status).toBe(201);
    const a = (await first.json()) as { id: number; result: boolean };
    const b = (await second.json()) as { id: number };
    expect(a.result).toBe(true);
    expect(a.id).not.toBe(b.id);
    const listed = (await (await fetch(`${az.url}/_sandbox/leads`)).json()) as { count: number };
    expect(listed.count).toBe(2);
  });

  it("refuses a missing required field, a wrong type, a null and an unknown id with 400 fieldErrors", async () => {
    const jwt = await token();
    const { email: _email, ...noEmail } = VALID;
    const cases: Array<[unknown, string]> = [
      [noEmail, "email"],
      [{ ...VALID, leadSourceId: "7001" }, "leadSourceId"],
      [{ ...VALID, phone: null }, "phone"],
      [{ ...VALID, pipelineId: 9999 }, "pipelineId"],
      [{ ...VALID, stageId: 50021 }, "stageId"],
      [{ ...VALID, assignTo: 1 }, "assignTo"],
      [{ ...VALID, firstName: "typo" }, "firstName"],
      [{ ...VALID, birthday: "03/09/1984" }, "birthday"],
    ];
    for (const [body, field] of cases) {
      const answer = await post("/v1/api/leads/create", body, jwt);
      expect(answer.status, field).toBe(400);
      const refused = (await answer.json()) as { error: string; fieldErrors: Array<{ field: string; error: string }> };
      expect(
        refused.fieldErrors.map((f) => f.field),
        field,
      ).toContain(field);
    }
    expect(az.leads.size).toBe(0);
  });

  it("updates a lead it has, and answers 404 for one it does not", async () => {
    const jwt = await token();
    const { id } = (await (await post("/v1/api/leads/create", VALID, jwt)).json()) as { id: number };
    const put = (leadId: string | number, body: unknown) =>
      fetch(`${az.url}/v1/api/leads/${leadId}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${jwt}` },
        body: JSON.stringify(body),
      });
    expect((await put(id, { ...VALID, lastname: "Kent-Lane" })).status).toBe(200);
    expect(az.leads.get(id)?.lastname).toBe("Kent-Lane");
    expect((await put(424242, VALID)).status).toBe(404);
    expect((await put("abc", VALID)).status).toBe(404);
    expect(az.leads.size).toBe(1);
  });
});
