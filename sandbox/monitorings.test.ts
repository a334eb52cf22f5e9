import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPull } from "./data/pulls";
import { startSandbox, type Sandbox } from "./server";
import { call, link, sandboxOptions, startReceiver, TEAM, types, type Hook, type Receiver } from "./test-receiver";

// Monitorings over real HTTP: the service-notes table (answers and 400 codes), refreshes that
// make a changed NEW pull and raise MONITORING_EVENTS, the scheduler driven by the sandbox
// clock, and the reconnect path (MONITORING_RECONNECT, reconnect tokens, pull-jwt steps).

let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox(sandboxOptions(receiver.url));
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

type Monitoring = {
  monitoring_id: string;
  latest_pull_id: string;
  status: string;
  next_pull_date: string | null;
  interval: string;
  stop_after_date: string | null;
  initial_pull_id: string;
};
type Event = {
  type: string;
  changes: Array<{
    schema: string;
    type: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>;
  documents: Array<{ document_id: string }>;
};

const teamPath = (path: string) => `/teams/${TEAM}${path}`;
const seededIn = (where: Sandbox, status: string, child = false) =>
  [...where.state.pulls.values()].filter(
    (p) => p.status === status && Boolean(p.parent_pull_id) === child && p.type === "PULLING_DATA",
  );
const seeded = (status: string, child = false) => seededIn(sandbox, status, child);
/** Recent enough to be monitored, and with policies that a refresh can change. */
const monitorable = (p: SandboxPull) =>
  (p.policies as unknown[]).length > 0 && Date.now() - Date.parse(p.created_at) < 80 * 86_400_000;
const used = new Set<string>();
/** A successful seeded pull with policies, not yet used by another test (with an auto policy, when asked). */
const freshSuccessPull = (withAuto = false) => {
  const pull = seeded("SUCCESS").find((p) => {
    const policies = p.policies as Array<{ policy_type: string }>;
    return !used.has(p.pull_id) && monitorable(p) && (!withAuto || policies.some((x) => x.policy_type === "AUTO"));
  });
  if (!pull) throw new Error("out of seeded pulls");
  used.add(pull.pull_id);
  return pull;
};

async function enable(pullId: string, extra: Record<string, unknown> = {}): Promise<Monitoring> {
  const answer = await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: pullId, interval: "P1M", ...extra });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.success).toBe(true);
  return answer.body.monitoring as Monitoring;
}

const expectError = (answer: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error).toBe(code);
};

describe("enable, list, get", () => {
  it("enables monitoring on a successful pull and serves it only under the team prefix", async () => {
    const pull = freshSuccessPull();
    const monitoring = await enable(pull.pull_id, { stop_after_date: "2099-01-01T00:00:00Z" });
    expect(monitoring).toMatchObject({
      latest_pull_id: pull.pull_id,
      status: "ACTIVE",
      interval: "P1M",
      stop_after_date: "2099-01-01T00:00:00Z",
    });
    const days = (Date.parse(String(monitoring.next_pull_date)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    expect(await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}`))).toEqual({
      status: 200,
      body: { monitoring },
    });
    expect(await call(sandbox, "GET", `/monitorings/${monitoring.monitoring_id}`)).toEqual({
      status: 404,
      body: { error: "NOT_FOUND" },
    });
    const detail = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}?with_pulls=true`));
    expect(detail.body.pulls).toEqual([
      { pull_id: pull.pull_id, status: "SUCCESS", created_at: pull.created_at, monitoring_status: "COMPLETED" },
    ]);
  });

  it("lists newest first with limit, a `before` cursor and filters", async () => {
    const a = await enable(freshSuccessPull().pull_id);
    const b = await enable(freshSuccessPull().pull_id);
    const c = await enable(freshSuccessPull().pull_id);
    await call(sandbox, "DELETE", teamPath(`/monitorings/${b.monitoring_id}`));

    const all = await call(sandbox, "GET", teamPath("/monitorings"));
    const ids = (all.body.monitorings as Monitoring[]).map((m) => m.monitoring_id);
    expect(all.body.monitorings_count).toBe(ids.length);
    expect(ids.indexOf(c.monitoring_id)).toBeLessThan(ids.indexOf(a.monitoring_id));

    const page = await call(sandbox, "GET", teamPath(`/monitorings?limit=1&before=${c.monitoring_id}`));
    expect((page.body.monitorings as Monitoring[]).map((m) => m.monitoring_id)).toEqual([b.monitoring_id]);
    const stopped = await call(sandbox, "GET", teamPath("/monitorings?status=STOPPED"));
    expect((stopped.body.monitorings as Monitoring[]).map((m) => m.monitoring_id)).toEqual([b.monitoring_id]);
    const byPull = await call(sandbox, "GET", teamPath(`/monitorings?pull_id=${a.latest_pull_id}`));
    expect(byPull.body).toMatchObject({ monitorings_count: 1, monitorings: [{ monitoring_id: a.monitoring_id }] });
    const account = sandbox.state.pulls.get(a.latest_pull_id)?.account_identifier;
    const byAccount = await call(sandbox, "GET", teamPath(`/monitorings?account_identifier=${account}`));
    expect((byAccount.body.monitorings as Monitoring[]).map((m) => m.monitoring_id)).toContain(a.monitoring_id);

    // A list route: bad query parameters are VALIDATION_ERROR, not the writes' INVALID_INPUT.
    expectError(await call(sandbox, "GET", teamPath("/monitorings?limit=0")), 400, "VALIDATION_ERROR");
    expectError(await call(sandbox, "GET", teamPath("/monitorings?status=PAUSED")), 400, "VALIDATION_ERROR");
    expectError(
      await call(sandbox, "GET", teamPath("/monitorings?before=no-such-monitoring")),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("refuses bad bodies and unfit pulls with the documented codes", async () => {
    const good = freshSuccessPull();
    expectError(await call(sandbox, "POST", teamPath("/monitorings"), { interval: "P1M" }), 400, "INVALID_INPUT");
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: good.pull_id, interval: "monthly" }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: good.pull_id, interval: "P7D" }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), {
        pull_id: good.pull_id,
        interval: "P1M",
        stop_after_date: "2001-01-01T00:00:00Z",
      }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), {
        pull_id: "00000000-0000-4000-8000-000000000000",
        interval: "P1M",
      }),
      400,
      "INVALID_INPUT",
    );

    const failed = seeded("NOT_AUTHENTICATED")[0];
    const child = seeded("SUCCESS", true)[0];
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: failed?.pull_id, interval: "P1M" }),
      400,
      "PULL_NOT_SUCCESS",
    );
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: child?.pull_id, interval: "P1M" }),
      400,
      "PULL_NOT_SUPPORTED",
    );
    const old = freshSuccessPull();
    sandbox.state.pulls.set(old.pull_id, { ...old, created_at: new Date(Date.now() - 120 * 86_400_000).toISOString() });
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), { pull_id: old.pull_id, interval: "P1M" }),
      400,
      "PULL_TOO_OLD",
    );
  });

  it("answers 404 NOT_FOUND for an unknown monitoring on every route", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/refresh"],
      ["GET", "/reconnectToken"],
      ["GET", "/events"],
    ] as const) {
      expectError(
        await call(
          sandbox,
          method,
          teamPath(`/monitorings/${id}${path}`),
          method === "PATCH" ? { interval: "P2M" } : undefined,
        ),
        404,
        "NOT_FOUND",
      );
    }
  });
});

describe("change and stop", () => {
  it("patches the schedule, refusing bad intervals and stop dates with their own codes", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const patch = (body: unknown) => call(sandbox, "PATCH", teamPath(`/monitorings/${monitoring.monitoring_id}`), body);
    expectError(await patch({ interval: "every month" }), 400, "INVALID_INTERVAL");
    expectError(await patch({ interval: "P29D" }), 400, "INTERVAL_TOO_SHORT");
    expectError(await patch({ stop_after_date: "2001-01-01T00:00:00Z" }), 400, "INVALID_STOP_AFTER");
    expectError(await patch({ stop_after_date: "soon" }), 400, "INVALID_STOP_AFTER");
    expectError(await patch({ status: "PAUSED" }), 400, "INVALID_INPUT");
    const ok = await patch({
      interval: "P1Y",
      next_pull_date: "2030-01-01T00:00:00Z",
      stop_after_date: "2031-06-01T00:00:00Z",
    });
    expect(ok.body).toMatchObject({
      success: true,
      monitoring: {
        interval: "P1Y",
        next_pull_date: "2030-01-01T00:00:00Z",
        stop_after_date: "2031-06-01T00:00:00.000Z",
      },
    });
  });

  it("DELETE stops it; a stopped monitoring neither refreshes nor hands out reconnect tokens", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const stopped = await call(sandbox, "DELETE", teamPath(`/monitorings/${monitoring.monitoring_id}`));
    expect(stopped.body).toMatchObject({ success: true, monitoring: { status: "STOPPED", next_pull_date: null } });
    expectError(
      await call(sandbox, "POST", teamPath(`/monitorings/${monitoring.monitoring_id}/refresh`)),
      400,
      "MONITORING_INACTIVE",
    );
    expectError(
      await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/reconnectToken`)),
      400,
      "MONITORING_INACTIVE",
    );
    const resumed = await call(sandbox, "PATCH", teamPath(`/monitorings/${monitoring.monitoring_id}`), {
      status: "ACTIVE",
    });
    expect(resumed.body).toMatchObject({ monitoring: { status: "ACTIVE", next_pull_date: expect.any(String) } });
  });
});

async function refresh(monitoringId: string): Promise<{ pullId: string; hooks: Hook[] }> {
  const answer = await call(sandbox, "POST", teamPath(`/monitorings/${monitoringId}/refresh`));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const pullId = String(answer.body.pull_id);
  return { pullId, hooks: await receiver.waitForEvent(pullId, "COMPLETE") };
}

describe("refresh", () => {
  it("makes a NEW pull of the same account with a change, and raises MONITORING_EVENTS before COMPLETE", async () => {
    const pull = freshSuccessPull();
    const monitoring = await enable(pull.pull_id);
    const answer = await call(sandbox, "POST", teamPath(`/monitorings/${monitoring.monitoring_id}/refresh`));
    const pullId = String(answer.body.pull_id);
    expect(pullId).not.toBe(pull.pull_id);
    expectError(
      await call(sandbox, "POST", teamPath(`/monitorings/${monitoring.monitoring_id}/refresh`)),
      400,
      "CURRENTLY_REFRESHING",
    );

    const hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    expect(types(hooks).slice(-4)).toEqual(["POLICIES_AVAILABLE", "DATA_UPDATED", "MONITORING_EVENTS", "COMPLETE"]);
    expect(types(hooks)).not.toContain("AUTH_STATUS"); // nobody is watching an automatic refresh
    for (const hook of hooks)
      expect(hook).toMatchObject({
        is_monitored: true,
        monitoring: { initial_pull_id: pull.pull_id, monitoring_id: monitoring.monitoring_id },
        account_identifier: pull.account_identifier,
      });

    const event = hooks.find((h) => h.event_type === "MONITORING_EVENTS")?.data as Event;
    expect(event.type).toBe("RENEWAL");
    const change = event.changes[0];
    expect(change).toMatchObject({ schema: "POLICY", type: "UPDATE" });
    expect(change?.before?.total_premium_cents).not.toBe(change?.after?.total_premium_cents);
    expect((hooks.find((h) => h.event_type === "DATA_UPDATED")?.data.updates as unknown[]).length).toBeGreaterThan(0);
    // The event's documents are `{ document_id }` objects naming documents of the new pull.
    expect(event.documents.length).toBeGreaterThan(0);
    for (const document of event.documents) expect(Object.keys(document)).toEqual(["document_id"]);

    const fresh = (await call(sandbox, "GET", teamPath(`/pulls/${pullId}`))).body.pull as Record<string, unknown> & {
      policies: Array<{ policy_id: string; total_premium_cents: number }>;
    };
    // Served as the service serves a pull: the account comes on the webhooks above, not on the pull.
    expect(fresh.status).toBe("SUCCESS");
    expect(fresh).not.toHaveProperty("account_identifier");
    const oldIds = new Set((pull.policies as Array<{ policy_id: string }>).map((p) => p.policy_id));
    expect(fresh.policies.some((p) => oldIds.has(p.policy_id))).toBe(false);
    expect(fresh.policies.find((p) => p.policy_id === change?.after?.policy_id)?.total_premium_cents).toBe(
      change?.after?.total_premium_cents,
    );
    const freshDocuments = new Set((fresh.documents as Array<{ document_id: string }>).map((d) => d.document_id));
    expect(event.documents.every((d) => freshDocuments.has(d.document_id))).toBe(true);

    const events = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/events`));
    expect(events.body).toEqual({ previous_pull_id: pull.pull_id, latest_pull_id: pullId, events: [event] });
    const detail = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}?with_pulls=true`));
    expect(detail.body.monitoring).toMatchObject({ latest_pull_id: pullId });
    expect(
      (detail.body.pulls as Array<{ pull_id: string; monitoring_status: string }>).map((p) => [
        p.pull_id,
        p.monitoring_status,
      ]),
    ).toEqual([
      [pullId, "COMPLETED"],
      [pull.pull_id, "COMPLETED"],
    ]);
  });

  it("goes through different changes on later refreshes", async () => {
    const pull = freshSuccessPull(true);
    const monitoring = await enable(pull.pull_id);
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { hooks } = await refresh(monitoring.monitoring_id);
      const event = hooks.find((h) => h.event_type === "MONITORING_EVENTS")?.data as Event | undefined;
      kinds.push(`${event?.type}:${event?.changes[0]?.schema}`);
    }
    expect(new Set(kinds).size, kinds.join(" ")).toBe(4);
  });

  it("user_good_discover: the first refresh adds a mortgagee", async () => {
    const { pullId } = await link(sandbox, "user_good_discover");
    await receiver.waitForEvent(pullId, "COMPLETE");
    const listed = await call(sandbox, "GET", teamPath(`/monitorings?pull_id=${pullId}`));
    const monitoring = (listed.body.monitorings as Monitoring[])[0];
    const { hooks } = await refresh(String(monitoring?.monitoring_id));
    const event = hooks.find((h) => h.event_type === "MONITORING_EVENTS")?.data as Event;
    expect(event.type).toBe("ENDORSEMENT");
    const change = event.changes[0];
    expect(change).toMatchObject({ schema: "DWELLING", type: "UPDATE" });
    const before = change?.before?.mortgagees as unknown[];
    const after = change?.after?.mortgagees as Array<{ name: string }>;
    expect(after).toHaveLength(before.length + 1);
  });

  it("refreshes on schedule when the sandbox clock passes next_pull_date, once per advance", async () => {
    const local = await startSandbox(sandboxOptions(receiver.url));
    try {
      const pull = seededIn(local, "SUCCESS").find(monitorable);
      const enabled = await call(local, "POST", teamPath("/monitorings"), { pull_id: pull?.pull_id, interval: "P45D" });
      const monitoring = enabled.body.monitoring as Monitoring;
      expect((await call(local, "POST", "/_sandbox/clock/advance", { days: 10 })).body.refreshed).toEqual([]);
      const advanced = await call(local, "POST", "/_sandbox/clock/advance", { days: 100 });
      const refreshed = advanced.body.refreshed as string[];
      expect(refreshed).toHaveLength(1);
      const hooks = await receiver.waitForEvent(String(refreshed[0]), "COMPLETE");
      expect(types(hooks)).toContain("MONITORING_EVENTS");
      const after = (await call(local, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}`))).body
        .monitoring as Monitoring;
      expect(after.latest_pull_id).toBe(refreshed[0]);
      expect(Date.parse(String(after.next_pull_date))).toBeGreaterThan(local.context.clock.now().getTime());
    } finally {
      await local.close();
    }
  });

  it("refreshes on its own once next_pull_date passes in real time", async () => {
    const pull = freshSuccessPull();
    // Linked 31 days ago: the service allows a refresh at once (30 days after the latest pull).
    pull.created_at = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const monitoring = await enable(pull.pull_id);
    const soon = await call(sandbox, "PATCH", teamPath(`/monitorings/${monitoring.monitoring_id}`), {
      next_pull_date: new Date(Date.now() + 200).toISOString(),
    });
    expect(soon.status).toBe(200);
    const current = async () =>
      (await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}`))).body.monitoring as Monitoring;
    const until = Date.now() + 5000;
    while ((await current()).latest_pull_id === monitoring.latest_pull_id && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await current();
    expect(after.latest_pull_id).not.toBe(monitoring.latest_pull_id);
    expect(types(await receiver.waitForEvent(after.latest_pull_id, "COMPLETE"))).toContain("MONITORING_EVENTS");
  });

  it("refuses a next_pull_date sooner than 30 days after the latest pull, on enable and on change", async () => {
    const pull = freshSuccessPull();
    const day = 86_400_000;
    const latest = Date.parse(pull.created_at);
    const tooSoon = new Date(latest + 29 * day).toISOString();
    expectError(
      await call(sandbox, "POST", teamPath("/monitorings"), {
        pull_id: pull.pull_id,
        interval: "P1M",
        next_pull_date: tooSoon,
      }),
      400,
      "INVALID_INPUT",
    );
    const monitoring = await enable(pull.pull_id, { next_pull_date: new Date(latest + 30 * day).toISOString() });
    const patch = (next: string) =>
      call(sandbox, "PATCH", teamPath(`/monitorings/${monitoring.monitoring_id}`), { next_pull_date: next });
    expectError(await patch(tooSoon), 400, "INVALID_NEXT_PULL_DATE");
    expectError(await patch(new Date(latest + 10 * day).toISOString()), 400, "INVALID_NEXT_PULL_DATE");
    const unchanged = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}`));
    expect(unchanged.body.monitoring).toMatchObject({ next_pull_date: monitoring.next_pull_date });
    expect((await patch(new Date(latest + 45 * day).toISOString())).status).toBe(200);
  });

  it("stops at stop_after_date instead of refreshing", async () => {
    const local = await startSandbox(sandboxOptions(receiver.url));
    try {
      const pull = seededIn(local, "SUCCESS").find(monitorable);
      const stopAt = new Date(Date.now() + 40 * 86_400_000).toISOString();
      const monitoring = (
        await call(local, "POST", teamPath("/monitorings"), {
          pull_id: pull?.pull_id,
          interval: "P2M",
          stop_after_date: stopAt,
        })
      ).body.monitoring as Monitoring;
      expect((await call(local, "POST", "/_sandbox/clock/advance", { days: 70 })).body.refreshed).toEqual([]);
      expect(
        (await call(local, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}`))).body.monitoring,
      ).toMatchObject({
        status: "STOPPED",
      });
    } finally {
      await local.close();
    }
  });
});

describe("reconnect", () => {
  const clientHeaders = { "x-service-client-id": "id", "x-service-client-secret": "secret" };
  const redeem = (token: string, headers: Record<string, string> = clientHeaders) =>
    call(sandbox, "POST", "/widget/pull/reconnectToken", { reconnect_token: token }, headers);

  it("raises MONITORING_RECONNECT; the token buys a pull-jwt once; connect completes the refresh", async () => {
    const pull = freshSuccessPull();
    const monitoring = await enable(pull.pull_id);
    const needed = await call(
      sandbox,
      "POST",
      `/_sandbox/monitorings/${monitoring.monitoring_id}/reconnect-needed`,
      {},
    );
    const pullId = String(needed.body.pull_id);
    const hooks = await receiver.waitForEvent(pullId, "MONITORING_RECONNECT");
    const reconnect = hooks.find((h) => h.event_type === "MONITORING_RECONNECT");
    expect(reconnect).toMatchObject({
      status: "NOT_AUTHENTICATED",
      is_monitored: true,
      monitoring: { initial_pull_id: pull.pull_id, monitoring_id: monitoring.monitoring_id },
    });
    expect(reconnect?.data).toEqual({
      auth_status: "NOT_AUTHENTICATED",
      reconnect_url: expect.stringContaining(String(reconnect?.data.reconnect_token)),
      reconnect_token: expect.any(String),
    });
    const detail = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}?with_pulls=true`));
    expect((detail.body.pulls as Array<{ monitoring_status: string }>)[0]?.monitoring_status).toBe("WAITING_FOR_USER");

    const token = String(reconnect?.data.reconnect_token);
    expect((await redeem(token, {})).status).toBe(401);
    expect((await redeem(token, { "x-service-client-id": "id", "x-service-client-secret": "nope" })).status).toBe(401);
    const session = await redeem(token);
    expect(session.status).toBe(200);
    expect(session.body.pull_id).toBe(pullId);
    expectError(await redeem(token), 400, "ALREADY_RECONNECTED");
    expectError(await redeem("rct_unknown"), 400, "INVALID_RECONNECT_TOKEN");

    const connect = await call(
      sandbox,
      "POST",
      `/widget/pull/${pullId}/connect`,
      { insurerName: "geico", insurerUsername: "user_good", insurerPassword: "pass_good" },
      { "pull-jwt": String(session.body.pull_jwt) },
    );
    expect(connect.status).toBe(200);
    const done = await receiver.waitForEvent(pullId, "COMPLETE");
    expect(types(done)).toEqual(expect.arrayContaining(["MONITORING_RECONNECT", "AUTH_STATUS", "MONITORING_EVENTS"]));
    expect(types(done).at(-1)).toBe("COMPLETE");
    for (const hook of done) expect(hook.account_identifier).toBe(pull.account_identifier);
    const reconnected = (await call(sandbox, "GET", teamPath(`/pulls/${pullId}`))).body.pull;
    expect(reconnected).toMatchObject({ status: "SUCCESS" });
    expect(reconnected).not.toHaveProperty("account_identifier");
  });

  it("a reconnect needing a second factor carries the options; idvoptions and idv finish it", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const needed = await call(sandbox, "POST", `/_sandbox/monitorings/${monitoring.monitoring_id}/reconnect-needed`, {
      auth_status: "IDENTITY_VERIFICATION_OPTIONS",
    });
    const pullId = String(needed.body.pull_id);
    const reconnect = (await receiver.waitForEvent(pullId, "MONITORING_RECONNECT")).find(
      (h) => h.event_type === "MONITORING_RECONNECT",
    );
    expect(reconnect?.data.auth_status).toBe("IDENTITY_VERIFICATION_OPTIONS");
    const option = (reconnect?.data.options as Array<{ key: string }>)[0]?.key;
    const session = await call(sandbox, "POST", "/widget/pull/reconnectToken", {
      reconnect_token: reconnect?.data.reconnect_token,
    }); // Basic auth works too
    const jwt = { "pull-jwt": String(session.body.pull_jwt) };
    expect((await call(sandbox, "POST", `/widget/pull/${pullId}/idvoptions`, { optionKey: option }, jwt)).status).toBe(
      200,
    );
    await receiver.waitFor(() =>
      receiver
        .forPull(pullId)
        .some((h) => h.event_type === "AUTH_STATUS" && h.data.auth_status === "IDENTITY_VERIFICATION"),
    );
    expect((await call(sandbox, "POST", `/widget/pull/${pullId}/idv`, { mfaValue: "987654" }, jwt)).status).toBe(200);
    const hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    const sequences = hooks
      .filter((h) => h.event_type === "AUTH_STATUS")
      .map((h) => [h.data.auth_status, h.data.sequence]);
    expect(sequences).toEqual([
      ["IDENTITY_VERIFICATION", 1],
      ["SUCCESS", 2],
    ]);
  });

  it("a reconnect at IDENTITY_VERIFICATION takes the code straight away", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const needed = await call(sandbox, "POST", `/_sandbox/monitorings/${monitoring.monitoring_id}/reconnect-needed`, {
      auth_status: "IDENTITY_VERIFICATION",
    });
    const pullId = String(needed.body.pull_id);
    const reconnect = (await receiver.waitForEvent(pullId, "MONITORING_RECONNECT")).find(
      (h) => h.event_type === "MONITORING_RECONNECT",
    );
    expect(reconnect).toMatchObject({
      status: "IDENTITY_VERIFICATION",
      data: { auth_status: "IDENTITY_VERIFICATION" },
    });
    const session = await call(
      sandbox,
      "POST",
      "/widget/pull/reconnectToken",
      { reconnect_token: reconnect?.data.reconnect_token },
      clientHeaders,
    );
    expect(
      (
        await call(
          sandbox,
          "POST",
          `/widget/pull/${pullId}/idv`,
          { mfaValue: "111111" },
          { "pull-jwt": String(session.body.pull_jwt) },
        )
      ).status,
    ).toBe(200);
    expect(types(await receiver.waitForEvent(pullId, "COMPLETE")).at(-1)).toBe("COMPLETE");
  });

  it("a refresh while the consumer is awaited supersedes the waiting pull: it expires", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const needed = await call(
      sandbox,
      "POST",
      `/_sandbox/monitorings/${monitoring.monitoring_id}/reconnect-needed`,
      {},
    );
    const waiting = String(needed.body.pull_id);
    const token = (await receiver.waitForEvent(waiting, "MONITORING_RECONNECT")).find(
      (h) => h.event_type === "MONITORING_RECONNECT",
    )?.data.reconnect_token;
    const { pullId } = await refresh(monitoring.monitoring_id);
    const detail = await call(
      sandbox,
      "GET",
      teamPath(`/monitorings/${monitoring.monitoring_id}?with_pulls=true&limit=2`),
    );
    expect(
      (detail.body.pulls as Array<{ pull_id: string; monitoring_status: string }>).map((p) => [
        p.pull_id,
        p.monitoring_status,
      ]),
    ).toEqual([
      [pullId, "COMPLETED"],
      [waiting, "EXPIRED"],
    ]);
    expectError(await redeem(String(token)), 400, "NEWER_PULL_AVAILABLE");
    const page = await call(
      sandbox,
      "GET",
      teamPath(`/monitorings/${monitoring.monitoring_id}?with_pulls=true&before=${waiting}`),
    );
    expect((page.body.pulls as Array<{ pull_id: string }>).map((p) => p.pull_id)).toEqual([monitoring.latest_pull_id]);
  });

  it("refuses a token once a newer pull exists, or once the monitoring stopped", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const fresh = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/reconnectToken`));
    expect(fresh.body).toMatchObject({
      pull_id: monitoring.latest_pull_id,
      reconnect_token: expect.any(String),
      reconnect_url: expect.stringMatching(/^https:\/\//),
    });
    await refresh(monitoring.monitoring_id);
    expectError(await redeem(String(fresh.body.reconnect_token)), 400, "NEWER_PULL_AVAILABLE");

    const again = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/reconnectToken`));
    await call(sandbox, "DELETE", teamPath(`/monitorings/${monitoring.monitoring_id}`));
    expectError(await redeem(String(again.body.reconnect_token)), 400, "MONITORING_INACTIVE");
  });

  it("a token for a finished pull opens a new pull of the account that waits for credentials", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const fresh = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/reconnectToken`));
    const session = await redeem(String(fresh.body.reconnect_token));
    expect(session.status).toBe(200);
    const pullId = String(session.body.pull_id);
    expect(pullId).not.toBe(monitoring.latest_pull_id);
    expect((await call(sandbox, "GET", teamPath(`/pulls/${pullId}`))).body.pull).toMatchObject({
      status: "NOT_AUTHENTICATED",
    });
    await call(
      sandbox,
      "POST",
      `/widget/pull/${pullId}/connect`,
      { insurerName: "geico", insurerUsername: "user_good", insurerPassword: "pass_good" },
      { "pull-jwt": String(session.body.pull_jwt) },
    );
    expect(types(await receiver.waitForEvent(pullId, "COMPLETE")).at(-1)).toBe("COMPLETE");
  });

  it("refuses the token exchange with 403 FORBIDDEN for a team without whitelabel access, keeping the token", async () => {
    const monitoring = await enable(freshSuccessPull().pull_id);
    const fresh = await call(sandbox, "GET", teamPath(`/monitorings/${monitoring.monitoring_id}/reconnectToken`));
    expect(fresh.body.reconnect_url).toMatch(/^https?:\/\//);
    expect((await call(sandbox, "POST", "/_sandbox/plan", { whitelabel: false })).body).toMatchObject({
      plan: { whitelabel: false },
    });
    try {
      expectError(await redeem(String(fresh.body.reconnect_token)), 403, "FORBIDDEN");
    } finally {
      await call(sandbox, "POST", "/_sandbox/plan", { whitelabel: true });
    }
    expect((await redeem(String(fresh.body.reconnect_token))).status).toBe(200);
  });

  it("control triggers answer 404 for unknown monitorings and 400 for bad bodies", async () => {
    expectError(await call(sandbox, "POST", "/_sandbox/monitorings/nope/refresh", {}), 404, "NOT_FOUND");
    const monitoring = await enable(freshSuccessPull().pull_id);
    expectError(
      await call(sandbox, "POST", `/_sandbox/monitorings/${monitoring.monitoring_id}/reconnect-needed`, {
        auth_status: "SUCCESS",
      }),
      400,
      "INVALID_INPUT",
    );
    const triggered = await call(sandbox, "POST", `/_sandbox/monitorings/${monitoring.monitoring_id}/refresh`, {});
    expect(types(await receiver.waitForEvent(String(triggered.body.pull_id), "COMPLETE"))).toContain(
      "MONITORING_EVENTS",
    );
  });
});
