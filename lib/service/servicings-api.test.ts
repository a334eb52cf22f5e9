import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { startServiceSandbox } from "@/test/service-sandbox";
import { startReceiver, type Receiver } from "@/sandbox/test-receiver";
import type { ServiceConfig } from "./client";
import { getPull } from "./pulls-api";
import { parseWebhookEvent } from "./schemas";
import { confirmServicingAction, getServicing, listServicings, requestServicing } from "./servicings-api";

// Servicing end to end over real HTTP: a request makes a SERVICING pull, the action waits for
// the consumer and says so by webhook, the consumer confirms with the pull-jwt, the action and
// the pull end in SUCCESS. Then the refusals: unsupported action, unknown or old pull, a
// carrier-side validation error, a wrong token and a second answer.

const TEAM = "7b2e3f4a-5d6c-4b7a-9988-776655443322";
let sandbox: Sandbox;
let receiver: Receiver;
let service: ServiceConfig;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ sandbox, service } = await startServiceSandbox("svc", {
    teamId: TEAM,
    seed: 37,
    pullCount: 12,
    webhookUrl: receiver.url,
  }));
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Policy = {
  carrier_policy_number: string | null;
  dwellings: Array<{ mortgagees: Array<{ name: string }> }>;
  vehicles: unknown[];
};

/** A finished link of user_good (home and auto) at this carrier, and its homeowners policy. */
async function linkedHome(carrier = "progressive"): Promise<{ pullId: string; home: Policy; auto: Policy }> {
  const response = await fetch(`${sandbox.url}/_sandbox/links`, {
    method: "POST",
    body: JSON.stringify({ username: "user_good", carrier }),
    headers: { "content-type": "application/json" },
  });
  const { pull_id: pullId } = (await response.json()) as { pull_id: string };
  const pull = await until(
    () => getPull(service, pullId),
    (p) => p.value.status === "SUCCESS",
    "the link",
  );
  const policies = pull.value.policies as unknown as Policy[];
  const home = policies.find((p) => p.dwellings.length > 0);
  const auto = policies.find((p) => p.vehicles.length > 0);
  if (!home || !auto) throw new Error("user_good has no home and auto policies");
  return { pullId, home, auto };
}

const POSITIONS = ["FIRST", "SECOND", "THIRD"] as const;
function addMortgagee(home: Policy) {
  const existing = home.dwellings[0]?.mortgagees.length ?? 0;
  return {
    type: "ADD_MORTGAGEE" as const,
    payload: {
      carrier_policy_number: home.carrier_policy_number ?? "",
      name: "Lakeside Credit Union ISAOA",
      address: "PO Box 100, Austin, TX 78701",
      loan_number: "5566778899",
      mortgagee_type: POSITIONS[existing] ?? "THIRD",
    },
  };
}

describe("servicing contract", () => {
  it("runs an action to the consumer's confirmation by webhook, and to SUCCESS once confirmed with the pull-jwt", async () => {
    const { pullId, home } = await linkedHome();
    const created = await requestServicing(service, { pull_id: pullId, servicing_actions: [addMortgagee(home)] });
    expect(created.pull_id).not.toBe(pullId);
    expect(created.servicing_action_ids).toHaveLength(1);
    const actionId = created.servicing_action_ids[0] ?? "";

    const servicingPull = await getPull(service, created.pull_id);
    expect(servicingPull.problems).toEqual([]);
    expect(servicingPull.value).toMatchObject({ type: "SERVICING" });

    await receiver.waitForEvent(created.pull_id, "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION");
    const hook = receiver
      .forPull(created.pull_id)
      .find((h) => h.event_type === "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION");
    expect(hook).toMatchObject({
      pull_id: created.pull_id,
      status: "WAITING_FOR_CONSUMER_CONFIRMATION",
      is_monitored: false,
      data: { servicing_action_id: actionId },
    });
    // The app's receiver reads it as a known event, in the common webhook body.
    const parsed = parseWebhookEvent(hook);
    expect(parsed.ok && parsed.problems).toEqual([]);
    expect(parsed.ok && parsed.value).toMatchObject({
      is_known_event: true,
      event_type: "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
      team_id: TEAM,
      widget_id: expect.any(String),
      data: { servicing_action_id: actionId },
    });

    const waiting = await getServicing(service, actionId);
    expect(waiting.problems).toEqual([]);
    expect(waiting.value).toMatchObject({
      servicing_action_id: actionId,
      type: "ADD_MORTGAGEE",
      status: "WAITING_FOR_CONSUMER_CONFIRMATION",
      validation_error_type: null,
    });
    expect(waiting.value.confirmation_data).toMatchObject({
      summary: expect.stringContaining("Lakeside Credit Union"),
    });
    expect((await getPull(service, created.pull_id)).value.status).toBe("WAITING_FOR_CONSUMER_CONFIRMATION");

    expect(await confirmServicingAction(service, created, actionId, true)).toBe(created.pull_id);
    expect(["SUBMITTING_CONFIRMATION", "SUCCESS"]).toContain((await getServicing(service, actionId)).value.status);
    await until(
      () => getServicing(service, actionId),
      (s) => s.value.status === "SUCCESS",
      "the servicing to succeed",
    );
    expect((await getPull(service, created.pull_id)).value.status).toBe("SUCCESS");
    await receiver.waitForEvent(created.pull_id, "COMPLETE");

    // A second answer is the wrong moment.
    expect(await failure(confirmServicingAction(service, created, actionId, true))).toMatchObject({
      status: 400,
      code: "INVALID_ACTION",
    });
    const listed = await listServicings(service, { pull_id: pullId });
    expect(listed.problems).toEqual([]);
    expect(listed.value).toMatchObject({ total_servicings: 1 });
    expect(listed.value.servicings.map((s) => s.servicing_action_id)).toEqual([actionId]);
    expect((await listServicings(service, { pull_id: created.pull_id })).value.total_servicings).toBe(1);
  });

  it("ends UNCONFIRMED when the consumer says no, and refuses another pull's token", async () => {
    const { pullId, home } = await linkedHome();
    const first = await requestServicing(service, { pull_id: pullId, servicing_actions: [addMortgagee(home)] });
    const second = await requestServicing(service, {
      pull_id: pullId,
      servicing_actions: [
        {
          type: "REMOVE_MORTGAGEE",
          payload: { carrier_policy_number: home.carrier_policy_number ?? "", mortgagee_type: "FIRST" },
        },
      ],
    });
    const actionId = first.servicing_action_ids[0] ?? "";
    await until(
      () => getServicing(service, actionId),
      (s) => s.value.status === "WAITING_FOR_CONSUMER_CONFIRMATION",
      "the action to wait",
    );
    const stolen = await failure(
      confirmServicingAction(service, { pull_id: first.pull_id, pull_jwt: second.pull_jwt }, actionId, true),
    );
    expect(stolen).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    // The other pull's own token does not reach this pull's action either.
    expect(await failure(confirmServicingAction(service, second, actionId, true))).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    await confirmServicingAction(service, first, actionId, false);
    expect((await getServicing(service, actionId)).value.status).toBe("UNCONFIRMED");
    expect((await listServicings(service, { pull_id: pullId, limit: 1 })).value).toMatchObject({ total_servicings: 2 });
  });

  it("ends in VALIDATION_ERROR when the carrier refuses the action", async () => {
    const { pullId, auto } = await linkedHome();
    const created = await requestServicing(service, {
      pull_id: pullId,
      servicing_actions: [
        {
          type: "ADD_MORTGAGEE",
          payload: {
            carrier_policy_number: "NO-SUCH-POLICY",
            name: "Bank",
            address: "1 Main St",
            mortgagee_type: "FIRST",
          },
        },
        {
          type: "ADD_VEHICLE",
          payload: {
            carrier_policy_number: auto.carrier_policy_number ?? "",
            vehicle: { vin: "3N1AB6AP0CL704240", model_year: 2012 },
          },
        },
      ],
    });
    const [bad, good] = created.servicing_action_ids;
    const refused = await until(
      () => getServicing(service, bad ?? ""),
      (s) => s.value.status === "VALIDATION_ERROR",
      "the validation error",
    );
    expect(refused.value.validation_error_type).toBe("INVALID_POLICY_NUMBER");
    expect((await getServicing(service, good ?? "")).value.status).toBe("WAITING_FOR_CONSUMER_CONFIRMATION");
  });

  it("answers the documented request errors", async () => {
    const { pullId, home } = await linkedHome("geico"); // GEICO services vehicles only
    expect(
      await failure(requestServicing(service, { pull_id: pullId, servicing_actions: [addMortgagee(home)] })),
    ).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    expect(
      await failure(
        requestServicing(service, { pull_id: crypto.randomUUID(), servicing_actions: [addMortgagee(home)] }),
      ),
    ).toMatchObject({ status: 404, code: "NOT_FOUND" });

    const old = crypto.randomUUID();
    const created = new Date(Date.now() - 200 * 86_400_000).toISOString();
    await fetch(`${sandbox.url}/_sandbox/pulls`, {
      method: "POST",
      body: JSON.stringify({
        pull_id: old,
        type: "PULLING_DATA",
        created_at: created,
        insurance_provider_name: "progressive",
      }),
      headers: { "content-type": "application/json" },
    });
    expect(
      await failure(requestServicing(service, { pull_id: old, servicing_actions: [addMortgagee(home)] })),
    ).toMatchObject({ status: 400, code: "PULL_TOO_OLD" });

    // A body the client would not send: the sandbox checks it too.
    const response = await fetch(`${sandbox.baseUrl}/teams/${TEAM}/servicings`, {
      method: "POST",
      body: JSON.stringify({ pull_id: pullId, servicing_actions: [{ type: "CANCEL_POLICY", payload: {} }] }),
      headers: {
        authorization: `Basic ${Buffer.from("svc:svc-secret").toString("base64")}`,
        "content-type": "application/json",
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "INVALID_INPUT" });
    await expect(requestServicing(service, { pull_id: pullId, servicing_actions: [] })).rejects.toThrow();
    expect(await failure(getServicing(service, "no-such-action"))).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });
});
