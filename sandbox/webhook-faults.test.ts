import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./server";
import { call, link, sandboxOptions, startReceiver, types, type Receiver } from "./test-receiver";

// The service promises neither order nor once-only delivery. By default the sandbox keeps one
// pull's events in order; the duplicateRate and reorder faults break that on demand, so that
// webhook consumers can be tested against both.

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

const IN_ORDER = ["AUTH_STATUS", "POLICY_AVAILABLE", "POLICY_AVAILABLE", "POLICIES_AVAILABLE", "COMPLETE"];

describe("webhook delivery faults", () => {
  it("delivers a pull's events once and in order by default", async () => {
    const { pullId } = await link(sandbox, "user_good");
    expect(types(await receiver.waitForEvent(pullId, "COMPLETE"))).toEqual(IN_ORDER);
  });

  it("sends every event twice at duplicateRate 1", async () => {
    expect((await call(sandbox, "POST", "/_sandbox/faults", { duplicateRate: 1 })).body.faults).toMatchObject({
      duplicateRate: 1,
      reorder: false,
    });
    const { pullId } = await link(sandbox, "user_good");
    const hooks = await receiver.waitForEvent(pullId, "COMPLETE", 2);
    expect(types(hooks)).toEqual(IN_ORDER.flatMap((t) => [t, t]));
    await call(sandbox, "POST", "/_sandbox/reset", {});
  });

  it("sends events raised close together in reverse under reorder", async () => {
    await call(sandbox, "POST", "/_sandbox/faults", { reorder: true });
    const { pullId } = await link(sandbox, "user_good");
    const hooks = await receiver.waitForEvent(pullId, "AUTH_STATUS");
    await receiver.waitFor(() => receiver.forPull(pullId).length === IN_ORDER.length);
    expect(types(hooks)).not.toEqual(IN_ORDER);
    expect([...types(receiver.forPull(pullId))].sort()).toEqual([...IN_ORDER].sort());
    expect(types(receiver.forPull(pullId)).at(-1)).not.toBe("COMPLETE");
  });

  it("rejects out-of-range fault settings", async () => {
    expect((await call(sandbox, "POST", "/_sandbox/faults", { duplicateRate: 1.5 })).status).toBe(400);
    expect((await call(sandbox, "POST", "/_sandbox/faults", { reorder: "yes" })).status).toBe(400);
  });
});
