import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePulls } from "./data/pulls";
import { startSandbox, type Sandbox } from "./server";

// The sandbox over real HTTP: it must answer like the real service, or tests against it prove nothing.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const NOW = new Date("2026-06-15T00:00:00Z");
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
let sandbox: Sandbox;

const options = {
  port: 0,
  clientId: "id",
  clientSecret: "secret",
  teamId: TEAM,
  webhookUrl: null,
  webhookSecret: null,
  seed: 3,
  now: NOW,
  speed: 0.0001,
  deliverOnStart: false,
};
const get = (path: string, headers: Record<string, string> = { authorization: auth }) =>
  fetch(`${sandbox.baseUrl}${path}`, { headers });

beforeAll(async () => {
  sandbox = await startSandbox(options);
});
afterAll(async () => {
  await sandbox?.close();
});

describe("sandbox service routes", () => {
  it("refuses missing or wrong credentials with the service's exact body", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Basic ${Buffer.from("id:wrong").toString("base64")}` },
      { authorization: "Bearer x" },
    ]) {
      const response = await get(`/teams/${TEAM}/pulls`, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "UNAUTHORIZED" });
    }
  });

  it("serves a pull in the {success, pull} envelope under the team prefix, and answers 404 without it", async () => {
    const list = (await (await get(`/teams/${TEAM}/pulls?limit=1`)).json()) as { pulls: Array<{ pull_id: string }> };
    const id = list.pulls[0]?.pull_id ?? "";
    const scoped = (await (await get(`/teams/${TEAM}/pulls/${id}`)).json()) as {
      success: boolean;
      pull: { pull_id: string; team_id: string };
    };
    expect(scoped.success).toBe(true);
    expect(scoped.pull.pull_id).toBe(id);
    expect(scoped.pull.team_id).toBe(TEAM);
    for (const path of [`/pulls/${id}`, "/pulls", "/monitorings", "/webhooks", "/widgets", "/servicings"]) {
      const bare = await get(path);
      expect(bare.status).toBe(404);
      expect(await bare.json()).toEqual({ error: "NOT_FOUND" });
    }
  });

  it("serves its pulls without account_identifier, as the service's published pulls, and an injected pull as given", async () => {
    const list = (await (await get(`/teams/${TEAM}/pulls?limit=100`)).json()) as {
      pulls: Array<Record<string, unknown>>;
    };
    expect(list.pulls).toHaveLength(36);
    for (const pull of list.pulls) expect(pull).not.toHaveProperty("account_identifier");
    const linked = [...sandbox.state.pulls.values()].find((p) => p.account_identifier);
    const one = (await (await get(`/teams/${TEAM}/pulls/${linked?.pull_id}`)).json()) as {
      pull: Record<string, unknown>;
    };
    expect(one.pull).toMatchObject({ pull_id: linked?.pull_id, status: linked?.status });
    expect(one.pull).not.toHaveProperty("account_identifier");

    const given = "5f0c3c55-0000-4000-8000-0000000000a1";
    const injected = await fetch(`${sandbox.url}/_sandbox/pulls`, {
      method: "POST",
      body: JSON.stringify({ pull_id: given, account_identifier: "acct_given" }),
      headers: { "content-type": "application/json" },
    });
    expect(injected.status).toBe(200);
    const served = (await (await get(`/teams/${TEAM}/pulls/${given}`)).json()) as { pull: Record<string, unknown> };
    expect(served.pull).toMatchObject({ pull_id: given, account_identifier: "acct_given" });
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", body: "{}" });
  });

  it("answers 400 NOT_FOUND for unknown or malformed pull ids, and 403 for another team", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const response = await get(`/teams/${TEAM}/pulls/${id}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "NOT_FOUND" });
    }
    expect((await get(`/teams/00000000-0000-4000-8000-000000000001/pulls`)).status).toBe(403);
  });

  it("lists in no order of its own, with total_pulls and inclusive date bounds", async () => {
    const first = (await (await get(`/teams/${TEAM}/pulls?limit=36&offset=0`)).json()) as {
      total_pulls: number;
      pulls: Array<{ pull_id: string; created_at: string }>;
    };
    const again = (await (await get(`/teams/${TEAM}/pulls?limit=36&offset=0`)).json()) as typeof first;
    expect(first.total_pulls).toBe(36);
    expect(first.pulls).toHaveLength(36);
    // The same pulls, in another order: the service states none, so neither does the sandbox.
    expect(new Set(again.pulls.map((p) => p.pull_id))).toEqual(new Set(first.pulls.map((p) => p.pull_id)));
    expect(again.pulls.map((p) => p.pull_id)).not.toEqual(first.pulls.map((p) => p.pull_id));
    const dates = first.pulls.map((p) => p.created_at).sort();
    const from = encodeURIComponent(dates[30] ?? "");
    const until = encodeURIComponent(dates[32] ?? "");
    const since = (await (await get(`/teams/${TEAM}/pulls?limit=100&since=${from}`)).json()) as typeof first;
    expect(since.total_pulls).toBe(6);
    const between = (await (
      await get(`/teams/${TEAM}/pulls?limit=100&since=${from}&before=${until}`)
    ).json()) as typeof first;
    expect(between.total_pulls).toBe(3);
    expect((await get(`/teams/${TEAM}/pulls?limit=0`)).status).toBe(400);
    expect((await get(`/teams/${TEAM}/pulls?limit=101`)).status).toBe(400);
    expect((await get(`/teams/${TEAM}/pulls?since=yesterday`)).status).toBe(400);
  });

  it("injects faults on demand and resets them", async () => {
    const id = [...sandbox.state.pulls.keys()][0] ?? "";
    const control = (path: string, body: unknown) =>
      fetch(`${sandbox.url}/_sandbox/${path}`, { method: "POST", body: JSON.stringify(body) });
    expect((await control("faults", { errorRate: 1 })).status).toBe(200);
    const failing = await get(`/teams/${TEAM}/pulls/${id}`);
    expect(failing.status).toBe(500);
    expect(await failing.json()).toEqual({ error: "INTERNAL_ERROR" });
    expect((await control("faults", { errorRate: 2 })).status).toBe(400);
    await control("reset", {});
    expect((await get(`/teams/${TEAM}/pulls/${id}`)).status).toBe(200);
  });
});

describe("sandbox data", () => {
  const pulls = generatePulls(3, 36, NOW);
  const policies = pulls.flatMap((p) => p.policies as Array<Record<string, unknown>>);

  it("is deterministic for a seed and changes with it", () => {
    expect(JSON.stringify(generatePulls(3, 36, NOW))).toBe(JSON.stringify(pulls));
    expect(generatePulls(4, 36, NOW)[0]?.pull_id).not.toBe(pulls[0]?.pull_id);
  });

  it("covers the lines an agency sells, with realistic values", () => {
    const types = new Set(policies.map((p) => p.policy_type));
    for (const type of [
      "AUTO",
      "HOMEOWNERS",
      "RENTERS",
      "CONDO",
      "UMBRELLA",
      "FLOOD",
      "LANDLORD",
      "BUSINESS_OWNERS",
      "WORKERS_COMPENSATION",
      "GENERAL_LIABILITY",
      "TERM_LIFE",
    ]) {
      expect(types.has(type), type).toBe(true);
    }
    const vehicles = policies.flatMap(
      (p) =>
        p.vehicles as Array<{
          vin: string;
          coverages: Array<Record<string, unknown>>;
          drivers: Array<{ is_excluded: boolean }>;
        }>,
    );
    expect(vehicles.length).toBeGreaterThan(10);
    // Boats carry a hull number (hin) instead of a VIN.
    for (const v of vehicles) if (v.vin !== null) expect(v.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
    const coverages = vehicles.flatMap((v) => v.coverages);
    expect(coverages.some((c) => c.per_person_unlimited === true)).toBe(true);
    expect(coverages.some((c) => c.is_declined === true)).toBe(true);
    expect(vehicles.some((v) => v.drivers.some((d) => d.is_excluded))).toBe(true);
    const dwellings = policies.flatMap(
      (p) => p.dwellings as Array<{ mortgagees: unknown[]; mortgagee_name: string | null; property_data: unknown }>,
    );
    expect(dwellings.some((d) => d.mortgagees.length > 0)).toBe(true);
    expect(dwellings.some((d) => d.mortgagee_name !== null)).toBe(true);
    expect(dwellings.some((d) => d.property_data !== null)).toBe(true);
  });

  it("keeps every money field in integer cents", () => {
    const offenders: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
      else if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if (k.endsWith("_cents") && v !== null && !Number.isInteger(v)) offenders.push(`${path}.${k}`);
          walk(v, `${path}.${k}`);
        }
      }
    };
    walk(pulls, "pulls");
    expect(offenders).toEqual([]);
  });

  it("includes failed links, a child pull and an account with hostile strings", () => {
    expect(pulls.filter((p) => p.status === "NOT_AUTHENTICATED")).toHaveLength(1);
    expect(pulls.filter((p) => p.status === "PROVIDER_ERROR")).toHaveLength(1);
    expect(pulls.filter((p) => p.parent_pull_id !== null)).toHaveLength(1);
    expect(pulls.some((p) => String(p.first_name).includes("<script>"))).toBe(true);
  });
});

describe("sandbox webhooks", () => {
  let receiver: Server;
  let received: Array<{ body: string; signature: string | undefined }> = [];
  let failFirst = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        if (failFirst > 0) {
          failFirst--;
          res.writeHead(503).end();
          return;
        }
        received.push({ body, signature: req.headers["canopy-signature"] as string | undefined });
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("delivers signed COMPLETE events for top-level pulls, retrying a receiver that fails", async () => {
    received = [];
    failFirst = 2;
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const signed = await startSandbox({ ...options, webhookUrl: url, webhookSecret: "whsec", deliverOnStart: true });
    try {
      await signed.deliveries.idle();
      const expected = [...signed.state.pulls.values()].filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
      expect(received).toHaveLength(expected.length);
      expect(signed.deliveries.counts).toMatchObject({ pending: 0, failed: 0, succeeded: expected.length });
      const child = [...signed.state.pulls.values()].find((p) => p.parent_pull_id);
      expect(received.some((r) => r.body.includes(child?.pull_id ?? "none"))).toBe(false);
      for (const { body, signature } of received) {
        const [, t, s] = /^t=(\d+),s=([0-9a-f]{64})$/.exec(signature ?? "") ?? [];
        expect(s).toBe(createHmac("sha256", "whsec").update(`${t}.${body}`).digest("hex"));
        const hook = JSON.parse(body) as { pull_id: string };
        expect(hook).toMatchObject({ event_type: "COMPLETE", team_id: TEAM, data: {} });
        // The account comes on the webhook, not on the pull the service serves.
        expect(hook).toHaveProperty("account_identifier", signed.state.pulls.get(hook.pull_id)?.account_identifier);
      }
      expect(received.filter((r) => /"account_identifier":"acct_/.test(r.body)).length).toBeGreaterThan(0);
    } finally {
      await signed.close();
    }
  });
});
