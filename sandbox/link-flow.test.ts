import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARRIER_LOGIN_ERROR, WRONG_CODE_MESSAGE } from "./flows/scenarios";
import { startSandbox, type Sandbox } from "./server";
import {
  BASIC,
  call,
  link,
  sandboxOptions,
  startReceiver,
  TEAM,
  types,
  type Hook,
  type Receiver,
} from "./test-receiver";

// The consent and whitelabel flows over real HTTP, with every sandbox scenario of the real
// service: final status, webhook order (AUTH_STATUS sequences increasing, COMPLETE last), MFA
// codes, and the pull-jwt that alone authorises a pull's follow-up calls.

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

const consent = { device_identifier: "device-1", terms_version: 2, consent_language: "I agree to the terms." };
const step = (pullId: string, name: string, body: unknown, jwt: string) =>
  call(sandbox, "POST", `/widget/pull/${pullId}/${name}`, body, { "pull-jwt": jwt });
const pullOf = async (pullId: string) =>
  (await call(sandbox, "GET", `/teams/${TEAM}/pulls/${pullId}`)).body.pull as Record<string, unknown> & {
    status: string;
    policies: Array<{ policy_type: string; expiry_date: string }>;
  };
const authStatuses = (hooks: Hook[]) => hooks.filter((h) => h.event_type === "AUTH_STATUS").map((h) => h.data);

/** Sequences strictly increase; nothing follows COMPLETE; POLICIES_AVAILABLE comes after every POLICY_AVAILABLE. */
function expectWellOrdered(hooks: Hook[]): void {
  const sequences = authStatuses(hooks).map((d) => Number(d.sequence));
  expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
  expect(new Set(sequences).size).toBe(sequences.length);
  const kinds = types(hooks);
  if (kinds.includes("COMPLETE")) expect(kinds.at(-1)).toBe("COMPLETE");
  if (kinds.includes("POLICIES_AVAILABLE"))
    expect(kinds.lastIndexOf("POLICY_AVAILABLE")).toBeLessThan(kinds.indexOf("POLICIES_AVAILABLE"));
}

async function waitForAuth(pullId: string, status: string, count = 1): Promise<Hook[]> {
  await receiver.waitFor(
    () => authStatuses(receiver.forPull(pullId)).filter((d) => d.auth_status === status).length >= count,
  );
  return receiver.forPull(pullId);
}

describe("consent and consentAndConnect", () => {
  it("issues a consent token, and links user_good: auto and home, AUTH_STATUS then policies then COMPLETE", async () => {
    const token = await call(sandbox, "POST", "/consent", consent, {});
    expect(token.status).toBe(200);
    expect(token.body.consent_token).toEqual(expect.any(String));

    const answer = await call(sandbox, "POST", "/widget/pull/consentAndConnect", {
      ...consent,
      public_alias: "get-a-quote",
      insurerName: "geico",
      insurerUsername: "user_good",
      insurerPassword: "pass_good",
      meta_data: { lead: 42 },
    });
    expect(answer.status).toBe(200);
    const pullId = String(answer.body.pull_id);
    expect(String(answer.body.pull_jwt).split(".")).toHaveLength(3);
    // The pull exists at once and is being worked on.
    expect(["STARTED", "QUEUED", "PROCESSING", "GETTING_CONSUMERS", "PULLING_DATA", "SUCCESS"]).toContain(
      (await pullOf(pullId)).status,
    );

    const hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    expectWellOrdered(hooks);
    expect(authStatuses(hooks)).toEqual([{ auth_status: "SUCCESS", login_error_message: null, sequence: 1 }]);
    const pull = await pullOf(pullId);
    expect(pull.status).toBe("SUCCESS");
    // meta_data comes back as the object that was sent, on the pull and on every webhook.
    expect(pull.meta_data).toEqual({ lead: 42 });
    for (const hook of hooks) expect(hook.meta_data).toEqual({ lead: 42 });
    expect(pull.insurance_provider_name).toBe("geico");
    expect(pull.policies.map((p) => p.policy_type).sort()).toEqual(["AUTO", "HOMEOWNERS"]);
    expect(types(hooks).filter((t) => t === "POLICY_AVAILABLE")).toHaveLength(2);
    expect(hooks.every((h) => h.is_monitored === false && h.monitoring === undefined)).toBe(true);
  });

  it("refuses consentAndConnect without Basic auth, and bad bodies with 400 INVALID_INPUT", async () => {
    const full = { ...consent, public_alias: "a", insurerName: "geico", insurerUsername: "user_good" };
    expect((await call(sandbox, "POST", "/widget/pull/consentAndConnect", full, {})).status).toBe(401);
    for (const [path, body, headers] of [
      ["/widget/pull/consentAndConnect", { ...full, insurerName: undefined }, { authorization: BASIC }],
      ["/widget/pull/consentAndConnect", { ...full, meta_data: 12 }, { authorization: BASIC }],
      ["/widget/pull/consentAndConnect", { ...full, meta_data: '{"lead":1}' }, { authorization: BASIC }],
      ["/widget/pull/consentAndConnect", { ...full, terms_version: "2" }, { authorization: BASIC }],
      ["/widget/pull/consentAndConnect", { ...full, terms_version: 1.5 }, { authorization: BASIC }],
      ["/consent", { ...consent, terms_version: "2" }, {}],
      ["/widget/pull/consentAndConnect", "{not json", { authorization: BASIC }],
      ["/consent", { device_identifier: "d" }, {}],
      ["/widget/pull/reconnectToken", { reconnect_token: 5 }, { authorization: BASIC }],
    ] as const) {
      const answer = await call(sandbox, "POST", path, body, headers);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error).toBe("INVALID_INPUT");
      expect(answer.body.message).toEqual(expect.any(String));
    }
  });
});

describe("insurerName is a carrier id", () => {
  it("refuses a display name or an unknown carrier with 400 UNSUPPORTED_INSURER on consentAndConnect, connect and the control shortcut", async () => {
    const full = {
      ...consent,
      public_alias: "get-a-quote",
      insurerUsername: "user_good",
      insurerPassword: "pass_good",
    };
    for (const insurerName of ["State Farm", "GEICO", "state_farm", "no-such-carrier"]) {
      const answer = await call(
        sandbox,
        "POST",
        "/widget/pull/consentAndConnect",
        { ...full, insurerName },
        { authorization: BASIC },
      );
      expect(answer, insurerName).toMatchObject({ status: 400, body: { error: "UNSUPPORTED_INSURER" } });
    }
    const { pullId, jwt } = await link(sandbox, "someone_else");
    await waitForAuth(pullId, "NOT_AUTHENTICATED");
    expect(
      await step(
        pullId,
        "connect",
        { insurerName: "State Farm", insurerUsername: "user_good", insurerPassword: "pass_good" },
        jwt,
      ),
    ).toMatchObject({ status: 400, body: { error: "UNSUPPORTED_INSURER" } });
    const control = await fetch(`${sandbox.url}/_sandbox/links`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "user_good", carrier: "State Farm" }),
    });
    expect(control.status).toBe(400);

    const linked = await call(
      sandbox,
      "POST",
      "/widget/pull/consentAndConnect",
      { ...full, insurerName: "statefarm" },
      { authorization: BASIC },
    );
    expect(linked.status).toBe(200);
    await receiver.waitForEvent(String(linked.body.pull_id), "COMPLETE");
    expect(await pullOf(String(linked.body.pull_id))).toMatchObject({
      insurance_provider_name: "statefarm",
      insurance_provider_friendly_name: "State Farm",
    });
  });

  it("takes no password for a carrier that signs in without one", async () => {
    const answer = await call(
      sandbox,
      "POST",
      "/widget/pull/consentAndConnect",
      { ...consent, public_alias: "get-a-quote", insurerName: "lemonade", insurerUsername: "user_good" },
      { authorization: BASIC },
    );
    expect(answer.status).toBe(200);
    await receiver.waitForEvent(String(answer.body.pull_id), "COMPLETE");
    expect((await pullOf(String(answer.body.pull_id))).status).toBe("SUCCESS");
  });
});

describe("the link progresses over time", () => {
  it("walks STARTED → QUEUED → PROCESSING → GETTING_CONSUMERS → PULLING_DATA → SUCCESS, visible on GET", async () => {
    const slow = await startSandbox(sandboxOptions(receiver.url, 0.05)); // 100 ms a step: slow enough to watch
    try {
      const { pullId } = await link(slow, "user_good");
      const seen: string[] = [];
      const until = Date.now() + 5000;
      while (seen.at(-1) !== "SUCCESS" && Date.now() < until) {
        const status = String(
          ((await call(slow, "GET", `/teams/${TEAM}/pulls/${pullId}`)).body.pull as { status: string }).status,
        );
        if (seen.at(-1) !== status) seen.push(status);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Polling may miss a step on a busy machine, but never sees one out of order.
      const path = ["STARTED", "QUEUED", "PROCESSING", "GETTING_CONSUMERS", "PULLING_DATA", "SUCCESS"];
      expect(seen).toEqual(path.filter((s) => seen.includes(s)));
      expect(["STARTED", "QUEUED"]).toContain(seen[0]);
      expect(seen.at(-1)).toBe("SUCCESS");
      expect(seen.length).toBeGreaterThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });
});

describe("second factor", () => {
  it("user_mfa: options, a chosen option, a wrong code, then a good one", async () => {
    const { pullId, jwt } = await link(sandbox, "user_mfa");
    let hooks = await waitForAuth(pullId, "IDENTITY_VERIFICATION_OPTIONS");
    const offered = authStatuses(hooks)[0]?.options as Array<{ key: string; label: string }>;
    expect(offered.length).toBeGreaterThan(1);
    expect((await pullOf(pullId)).status).toBe("IDENTITY_VERIFICATION_OPTIONS");

    expect((await step(pullId, "idvoptions", { optionKey: "no-such-option" }, jwt)).status).toBe(400);
    expect((await step(pullId, "idv", { mfaValue: "123456" }, jwt)).body.error).toBe("INVALID_ACTION"); // not asked for a code yet
    expect(await step(pullId, "idvoptions", { optionKey: offered[0]?.key }, jwt)).toEqual({
      status: 200,
      body: { pull_id: pullId },
    });
    await waitForAuth(pullId, "IDENTITY_VERIFICATION");

    expect((await step(pullId, "idv", { mfaValue: "000000" }, jwt)).status).toBe(200);
    hooks = await waitForAuth(pullId, "IDENTITY_VERIFICATION", 2);
    expect(authStatuses(hooks).at(-1)).toMatchObject({
      auth_status: "IDENTITY_VERIFICATION",
      login_error_message: WRONG_CODE_MESSAGE,
    });
    expect((await pullOf(pullId)).status).toBe("IDENTITY_VERIFICATION");

    expect(await step(pullId, "idv", { mfaValue: "424242" }, jwt)).toEqual({ status: 200, body: { pull_id: pullId } });
    hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    expectWellOrdered(hooks);
    expect(authStatuses(hooks).map((d) => [d.auth_status, d.sequence])).toEqual([
      ["IDENTITY_VERIFICATION_OPTIONS", 1],
      ["IDENTITY_VERIFICATION", 2],
      ["IDENTITY_VERIFICATION", 3],
      ["SUCCESS", 4],
    ]);
    const pull = await pullOf(pullId);
    expect(pull).toMatchObject({ status: "SUCCESS", encountered_mfa: true });
  });

  it("user_optionless_mfa: straight to a code; 000001 is a carrier refusal, left by connect", async () => {
    const { pullId, jwt } = await link(sandbox, "user_optionless_mfa");
    let hooks = await waitForAuth(pullId, "IDENTITY_VERIFICATION");
    expect(authStatuses(hooks)[0]).toMatchObject({ auth_status: "IDENTITY_VERIFICATION", sequence: 1 });
    expect(authStatuses(hooks)[0]).not.toHaveProperty("options");

    await step(pullId, "idv", { mfaValue: "000001" }, jwt);
    hooks = await waitForAuth(pullId, "NOT_AUTHENTICATED");
    expect(authStatuses(hooks).at(-1)).toMatchObject({ login_error_message: CARRIER_LOGIN_ERROR, sequence: 2 });
    expect((await pullOf(pullId)).status).toBe("NOT_AUTHENTICATED");

    // connect answers in its published envelope.
    expect(
      await step(
        pullId,
        "connect",
        { insurerName: "progressive", insurerUsername: "user_good", insurerPassword: "pass_good" },
        jwt,
      ),
    ).toEqual({ status: 200, body: { pull: { pull_id: pullId }, shouldPoll: true } });
    hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    expectWellOrdered(hooks);
    expect(authStatuses(hooks).map((d) => d.auth_status)).toEqual([
      "IDENTITY_VERIFICATION",
      "NOT_AUTHENTICATED",
      "SUCCESS",
    ]);
  });
});

describe("scenarios", () => {
  const lastAuth = (hooks: Hook[]) => authStatuses(hooks).at(-1);

  it.each([
    ["user_locked", undefined],
    ["user_unactivated", undefined],
    ["someone_else", undefined],
    ["user_good", "wrong-password"],
  ])("%s (password %s) ends NOT_AUTHENTICATED", async (username, password) => {
    const { pullId } = await link(sandbox, username, password);
    const hooks = await waitForAuth(pullId, "NOT_AUTHENTICATED");
    const message = lastAuth(hooks)?.login_error_message;
    // Locked and unactivated accounts come with the carrier's words; bad credentials with none.
    if (username.startsWith("user_") && password === undefined)
      expect(message).toEqual(expect.stringMatching(/.{10,}/));
    else expect(message).toBeNull();
    expect((await pullOf(pullId)).status).toBe("NOT_AUTHENTICATED");
    expect(types(receiver.forPull(pullId))).toEqual(["AUTH_STATUS"]);
  });

  it.each(["PROVIDER_ERROR", "INTERNAL_ERROR"])("user_%s raises ERROR with its type", async (type) => {
    const { pullId } = await link(sandbox, `user_${type.toLowerCase()}`);
    const hooks = await receiver.waitForEvent(pullId, "ERROR");
    expect(types(hooks)).toEqual(["AUTH_STATUS", "ERROR"]);
    expect(hooks.at(-1)?.data).toEqual({ type });
    expect((await pullOf(pullId)).status).toBe(type);
  });

  it("user_good_commercial links commercial lines", async () => {
    const { pullId } = await link(sandbox, "user_good_commercial");
    expectWellOrdered(await receiver.waitForEvent(pullId, "COMPLETE"));
    const kinds = (await pullOf(pullId)).policies.map((p) => p.policy_type);
    expect(kinds).toEqual(expect.arrayContaining(["BUSINESS_OWNERS", "GENERAL_LIABILITY"]));
  });

  it("user_good_flood has a flood policy; user_good_flood_expiring one that expires in 15 days", async () => {
    const daysLeft = async (username: string) => {
      const { pullId } = await link(sandbox, username);
      await receiver.waitForEvent(pullId, "COMPLETE");
      const flood = (await pullOf(pullId)).policies.find((p) => p.policy_type === "FLOOD");
      expect(flood, username).toBeDefined();
      return Math.round((Date.parse(String(flood?.expiry_date)) - Date.now()) / 86_400_000);
    };
    expect(await daysLeft("user_good_flood")).toBeGreaterThan(30);
    expect(Math.abs((await daysLeft("user_good_flood_expiring")) - 15)).toBeLessThanOrEqual(1);
  });

  it("user_good_no_policies succeeds with no policies", async () => {
    const { pullId } = await link(sandbox, "user_good_no_policies");
    const hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    expect(types(hooks)).toEqual(["AUTH_STATUS", "POLICIES_AVAILABLE", "COMPLETE"]);
    expect(await pullOf(pullId)).toMatchObject({ status: "SUCCESS", no_policies: true, policies: [] });
  });

  it("user_good_discover is monitored from the start: its webhooks say so", async () => {
    const { pullId } = await link(sandbox, "user_good_discover");
    const hooks = await receiver.waitForEvent(pullId, "COMPLETE");
    const complete = hooks.at(-1);
    expect(complete?.is_monitored).toBe(true);
    expect(complete?.monitoring).toEqual({ initial_pull_id: pullId, monitoring_id: expect.any(String) });
    const listed = await call(sandbox, "GET", `/teams/${sandbox.context.options.teamId}/monitorings?pull_id=${pullId}`);
    expect(listed.body.monitorings_count).toBe(1);
  });
});

describe("pull-jwt", () => {
  it("alone authorises connect, idvoptions and idv, and only for its own pull", async () => {
    const first = await link(sandbox, "someone_else");
    const second = await link(sandbox, "someone_else");
    await waitForAuth(first.pullId, "NOT_AUTHENTICATED");
    const body = { insurerName: "geico", insurerUsername: "user_good", insurerPassword: "pass_good" };
    const tampered = `${first.jwt.slice(0, -2)}${first.jwt.endsWith("A") ? "B" : "A"}`;
    for (const headers of [
      {},
      { authorization: BASIC },
      { "pull-jwt": second.jwt },
      { "pull-jwt": tampered },
      { "pull-jwt": "nonsense" },
    ] as Array<Record<string, string>>) {
      for (const name of ["connect", "idvoptions", "idv"]) {
        const answer = await call(sandbox, "POST", `/widget/pull/${first.pullId}/${name}`, body, headers);
        expect(answer.status, `${name} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.body).toEqual({ error: "UNAUTHORIZED" });
      }
    }
    // The right token, but a bad body: 400, not 403.
    expect((await step(first.pullId, "connect", { insurerName: "geico" }, first.jwt)).body.error).toBe("INVALID_INPUT");
    expect((await step(first.pullId, "idv", {}, first.jwt)).body.error).toBe("INVALID_INPUT");
    expect((await step(first.pullId, "connect", body, first.jwt)).status).toBe(200);
    expectWellOrdered(await receiver.waitForEvent(first.pullId, "COMPLETE"));
  });

  it("expires with the sandbox clock", async () => {
    const other = await startSandbox(sandboxOptions(receiver.url));
    try {
      const { pullId, jwt } = await link(other, "someone_else");
      other.context.clock.advance(2 * 3_600_000);
      const answer = await call(
        other,
        "POST",
        `/widget/pull/${pullId}/connect`,
        { insurerName: "geico", insurerUsername: "user_good" },
        { "pull-jwt": jwt },
      );
      expect(answer.status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
