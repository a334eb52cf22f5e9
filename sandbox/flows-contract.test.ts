import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  monitoringDetailResponseSchema,
  monitoringEventsResponseSchema,
  monitoringListResponseSchema,
  monitoringReconnectTokenResponseSchema,
  monitoringResponseSchema,
  parseTolerant,
  parseWebhookEvent,
  pullIdResponseSchema,
  pullSessionResponseSchema,
} from "@/lib/service/schemas";
import { startSandbox, type Sandbox } from "./server";
import { call, link, sandboxOptions, startReceiver, TEAM, type Receiver } from "./test-receiver";

// A contract check, in the test only (the sandbox itself never imports the app): what the
// flows and monitoring routes send must read cleanly with the app's own parsers, without a
// single reported problem, or the sandbox would teach the app the wrong shapes.

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

function expectClean(result: { ok: true; problems: unknown[] } | { ok: false; error: string }, what: string): void {
  expect(result.ok ? result.problems : result.error, what).toEqual([]);
}

describe("flow and monitoring payloads read cleanly with the app's parsers", () => {
  it("webhooks of an MFA link, a monitored refresh and a reconnect", async () => {
    const mfa = await link(sandbox, "user_mfa");
    await receiver.waitFor(() => receiver.forPull(mfa.pullId).length > 0);
    const key = String((receiver.forPull(mfa.pullId)[0]?.data.options as Array<{ key: string }>)[0]?.key);
    expectClean(
      parseTolerant(
        pullIdResponseSchema,
        (
          await call(
            sandbox,
            "POST",
            `/widget/pull/${mfa.pullId}/idvoptions`,
            { optionKey: key },
            { "pull-jwt": mfa.jwt },
          )
        ).body,
      ),
      "idvoptions",
    );
    await receiver.waitFor(() => receiver.forPull(mfa.pullId).length > 1);
    await call(sandbox, "POST", `/widget/pull/${mfa.pullId}/idv`, { mfaValue: "123456" }, { "pull-jwt": mfa.jwt });
    await receiver.waitForEvent(mfa.pullId, "COMPLETE");

    const discover = await link(sandbox, "user_good_discover");
    await receiver.waitForEvent(discover.pullId, "COMPLETE");
    const list = (await call(sandbox, "GET", `/teams/${TEAM}/monitorings?pull_id=${discover.pullId}`)).body;
    expectClean(parseTolerant(monitoringListResponseSchema, list), "monitoring list");
    const id = String((list.monitorings as Array<{ monitoring_id: string }>)[0]?.monitoring_id);
    const refreshed = String((await call(sandbox, "POST", `/teams/${TEAM}/monitorings/${id}/refresh`)).body.pull_id);
    await receiver.waitForEvent(refreshed, "COMPLETE");
    const reconnect = String(
      (
        await call(sandbox, "POST", `/_sandbox/monitorings/${id}/reconnect-needed`, {
          auth_status: "IDENTITY_VERIFICATION_OPTIONS",
        })
      ).body.pull_id,
    );
    await receiver.waitForEvent(reconnect, "MONITORING_RECONNECT");

    const hooks = [
      ...receiver.forPull(mfa.pullId),
      ...receiver.forPull(discover.pullId),
      ...receiver.forPull(refreshed),
      ...receiver.forPull(reconnect),
    ];
    expect(new Set(hooks.map((h) => h.event_type))).toEqual(
      new Set([
        "AUTH_STATUS",
        "POLICY_AVAILABLE",
        "POLICIES_AVAILABLE",
        "COMPLETE",
        "DATA_UPDATED",
        "MONITORING_EVENTS",
        "MONITORING_RECONNECT",
      ]),
    );
    for (const hook of hooks) {
      const parsed = parseWebhookEvent(hook);
      expectClean(parsed, hook.event_type);
      if (parsed.ok) expect(parsed.value.is_known_event, hook.event_type).toBe(true);
    }
    const first = parseWebhookEvent(receiver.forPull(mfa.pullId)[0]);
    const offered =
      first.ok && first.value.is_known_event && first.value.event_type === "AUTH_STATUS"
        ? first.value.data.options
        : [];
    expect(offered.map((o) => o.key)).toContain(key); // the app reads the options it must offer

    const base = `/teams/${TEAM}/monitorings/${id}`;
    expectClean(
      parseTolerant(monitoringDetailResponseSchema, (await call(sandbox, "GET", `${base}?with_pulls=true`)).body),
      "monitoring detail",
    );
    expectClean(
      parseTolerant(monitoringEventsResponseSchema, (await call(sandbox, "GET", `${base}/events`)).body),
      "monitoring events",
    );
    expectClean(
      parseTolerant(
        monitoringReconnectTokenResponseSchema,
        (await call(sandbox, "GET", `${base}/reconnectToken`)).body,
      ),
      "reconnect token",
    );
    expectClean(
      parseTolerant(monitoringResponseSchema, (await call(sandbox, "PATCH", base, { interval: "P45D" })).body),
      "patch",
    );
    const token = receiver.forPull(reconnect).find((h) => h.event_type === "MONITORING_RECONNECT")
      ?.data.reconnect_token;
    expectClean(
      parseTolerant(
        pullSessionResponseSchema,
        (await call(sandbox, "POST", "/widget/pull/reconnectToken", { reconnect_token: token })).body,
      ),
      "reconnect session",
    );
  });
});
