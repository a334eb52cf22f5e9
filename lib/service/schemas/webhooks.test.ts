import { describe, expect, it } from "vitest";
import type { PayloadProblem } from "./problems";
import { parseWebhookEvent, type KnownWebhook, type WebhookEvent } from "./webhooks";
import { kindsAt, PULL_ID } from "./test-support";

// Webhook bodies of every event type the service documents. A body is a notification (the pull
// is re-fetched afterwards), so only an object with an event type is required.

const TEAM_ID = "394661bc-6361-46f0-8b11-4106d6146cb4";
const WIDGET_ID = "d2bb6d56-15ff-4760-a27c-362f9bce645a";
const MONITORING = {
  initial_pull_id: "b2cc89fc-2064-4259-bb61-460924fe115f",
  monitoring_id: "7a4c3c2e-8f0e-4b53-9d4e-0a7d4f1c2b11",
};

const common = {
  widget_id: WIDGET_ID,
  team_id: TEAM_ID,
  pull_id: PULL_ID,
  status: "SUCCESS",
  meta_data: { crm_id: 7 },
  account_identifier: "acct-1",
  is_monitored: false,
};

function accepted(body: unknown): { event: WebhookEvent; problems: PayloadProblem[] } {
  const result = parseWebhookEvent(body);
  if (!result.ok) throw new Error(`expected the webhook to be accepted: ${result.error}`);
  return { event: result.value, problems: result.problems };
}

/** Narrows to one known event type, failing the test when the body was read as another. */
function asEvent<const T extends KnownWebhook["event_type"]>(
  event: WebhookEvent,
  eventType: T,
): Extract<KnownWebhook, { event_type: T }> {
  if (!event.is_known_event || event.event_type !== eventType)
    throw new Error(`expected a ${eventType} event, got ${event.event_type}`);
  return event as Extract<KnownWebhook, { event_type: T }>;
}

describe("the common envelope", () => {
  it("reads every common field, and the monitoring block when present", () => {
    const { event, problems } = accepted({
      ...common,
      event_type: "COMPLETE",
      is_monitored: true,
      monitoring: MONITORING,
      data: {},
    });
    expect(problems).toEqual([]);
    expect(event).toMatchObject({
      ...common,
      is_monitored: true,
      monitoring: MONITORING,
      event_type: "COMPLETE",
      is_known_event: true,
    });
  });

  it("keeps meta_data as a string or an object", () => {
    expect(accepted({ ...common, event_type: "COMPLETE", meta_data: '{"crm_id":7}' }).event.meta_data).toBe(
      '{"crm_id":7}',
    );
    expect(accepted({ ...common, event_type: "COMPLETE", meta_data: null }).event.meta_data).toBeNull();
  });

  it("keeps fields it does not know", () => {
    expect(accepted({ ...common, event_type: "COMPLETE", delivered_at: "2026-01-01T00:00:00Z" }).event).toMatchObject({
      delivered_at: "2026-01-01T00:00:00Z",
    });
  });

  it("fails only for a non-object, a missing event type, or a known event without its pull", () => {
    expect(parseWebhookEvent("COMPLETE").ok).toBe(false);
    expect(parseWebhookEvent({ ...common }).ok).toBe(false);
    expect(parseWebhookEvent({ event_type: "COMPLETE" }).ok).toBe(false);
    expect(parseWebhookEvent({ event_type: "COMPLETE", pull_id: PULL_ID }).ok).toBe(true);
  });
});

describe("each event type", () => {
  it("COMPLETE and POLICIES_AVAILABLE carry an empty data object", () => {
    for (const eventType of ["COMPLETE", "POLICIES_AVAILABLE"]) {
      const { event, problems } = accepted({ ...common, event_type: eventType, data: {} });
      expect(event.event_type).toBe(eventType);
      expect(event.data).toEqual({});
      expect(problems).toEqual([]);
    }
  });

  it("POLICY_AVAILABLE names the policy and its type", () => {
    const { event } = accepted({
      ...common,
      event_type: "POLICY_AVAILABLE",
      data: { policy_id: "a5c3eac9-537c-4146-8de9-99fb55455126", policy_type: "HOMEOWNERS" },
    });
    expect(asEvent(event, "POLICY_AVAILABLE").data).toEqual({
      policy_id: "a5c3eac9-537c-4146-8de9-99fb55455126",
      policy_type: "HOMEOWNERS",
    });
  });

  it("AUTH_STATUS carries the status, login error and sequence", () => {
    const { event, problems } = accepted({
      ...common,
      status: "NOT_AUTHENTICATED",
      event_type: "AUTH_STATUS",
      data: { auth_status: "NOT_AUTHENTICATED", login_error_message: "Account locked", sequence: 3 },
    });
    expect(problems).toEqual([]);
    expect(asEvent(event, "AUTH_STATUS").data).toMatchObject({
      auth_status: "NOT_AUTHENTICATED",
      login_error_message: "Account locked",
      sequence: 3,
      options: [],
    });
  });

  it("AUTH_STATUS takes the sequence from beside data when data has none", () => {
    const { event } = accepted({ ...common, event_type: "AUTH_STATUS", sequence: 9, data: { auth_status: "SUCCESS" } });
    expect(asEvent(event, "AUTH_STATUS").data.sequence).toBe(9);
  });

  it("AUTH_STATUS options read from a list of objects, a list of strings or a map", () => {
    const shapes = [
      [
        { key: "sms", label: "Text 555-0100" },
        { optionKey: "email", displayValue: "Email c***@x.com" },
      ],
      ["sms", "email"],
      { sms: "Text 555-0100", email: { label: "Email c***@x.com" } },
    ];
    const keys = shapes.map((options) => {
      const { event } = accepted({
        ...common,
        event_type: "AUTH_STATUS",
        status: "IDENTITY_VERIFICATION_OPTIONS",
        data: { auth_status: "IDENTITY_VERIFICATION_OPTIONS", options, sequence: 2 },
      });
      return asEvent(event, "AUTH_STATUS").data.options.map((o) => o.key);
    });
    expect(keys).toEqual([
      ["sms", "email"],
      ["sms", "email"],
      ["sms", "email"],
    ]);
    const { event } = accepted({
      ...common,
      event_type: "AUTH_STATUS",
      data: { auth_status: "IDENTITY_VERIFICATION_OPTIONS", mfa_options: [{ key: "sms", label: "Text" }] },
    });
    expect(asEvent(event, "AUTH_STATUS").data.options).toEqual([{ key: "sms", label: "Text" }]);
  });

  it("AUTH_STATUS reports an option it cannot use, and keeps the others", () => {
    const { event, problems } = accepted({
      ...common,
      event_type: "AUTH_STATUS",
      data: { auth_status: "IDENTITY_VERIFICATION_OPTIONS", options: ["sms", 7, { label: "no key" }] },
    });
    expect(asEvent(event, "AUTH_STATUS").data.options).toEqual([{ key: "sms", label: "sms" }]);
    expect(kindsAt(problems, "data.options[1]")).toEqual(["dropped_item"]);
    expect(kindsAt(problems, "data.options[2]")).toEqual(["dropped_item"]);
  });

  it("ERROR says which failure, and keeps an undocumented one", () => {
    const { event } = accepted({
      ...common,
      status: "PROVIDER_ERROR",
      event_type: "ERROR",
      data: { type: "PROVIDER_ERROR" },
    });
    expect(asEvent(event, "ERROR").data.type).toBe("PROVIDER_ERROR");
    const odd = accepted({ ...common, event_type: "ERROR", data: { type: "CARRIER_MAINTENANCE" } });
    expect(asEvent(odd.event, "ERROR").data.type).toBe("CARRIER_MAINTENANCE");
    expect(odd.problems).toEqual([]);
  });

  it("MONITORING_RECONNECT carries the reconnect url and token", () => {
    const data = {
      auth_status: "NOT_AUTHENTICATED",
      reconnect_url: "https://app.example/c/demo/reconnect?reconnectToken=tok",
      reconnect_token: "tok",
    };
    const { event, problems } = accepted({
      ...common,
      status: "NOT_AUTHENTICATED",
      event_type: "MONITORING_RECONNECT",
      is_monitored: true,
      monitoring: MONITORING,
      data,
    });
    expect(problems).toEqual([]);
    expect(event).toMatchObject({ event_type: "MONITORING_RECONNECT", monitoring: MONITORING, data });
  });

  it("MONITORING_EVENTS carries one monitoring event", () => {
    const data = {
      type: "RENEWAL",
      changes: [
        {
          schema: "POLICY",
          type: "UPDATE",
          before: { total_premium_cents: 51400 },
          after: { total_premium_cents: 62100 },
        },
      ],
      documents: [{ document_id: "2754c9f8-a5b0-4282-a1a1-0ef29a97dd09" }],
    };
    const { event, problems } = accepted({
      ...common,
      event_type: "MONITORING_EVENTS",
      is_monitored: true,
      monitoring: MONITORING,
      data,
    });
    expect(problems).toEqual([]);
    expect(asEvent(event, "MONITORING_EVENTS").data).toEqual(data);
  });

  it("DATA_UPDATED keeps each update as received", () => {
    const updates = [
      { type: "CONTACT_UPDATED", data: { first_name: "Clark", mobile_phone: "8885550000" } },
      { type: "DRIVER_ADDED", driver: { driver_id: "d-1" } },
    ];
    const { event } = accepted({ ...common, event_type: "DATA_UPDATED", data: { updates } });
    expect(asEvent(event, "DATA_UPDATED").data.updates).toEqual(updates);
  });

  it("an event type this code does not know is kept whole as a generic event", () => {
    const { event, problems } = accepted({
      ...common,
      event_type: "VALIDATION_COMPLETE",
      data: { validation_id: "v-1" },
    });
    expect(problems).toEqual([]);
    expect(event).toMatchObject({
      is_known_event: false,
      event_type: "VALIDATION_COMPLETE",
      pull_id: PULL_ID,
      data: { validation_id: "v-1" },
    });
  });

  it("a servicing action waiting for the consumer names the action", () => {
    const { event, problems } = accepted({
      ...common,
      status: "WAITING_FOR_CONSUMER_CONFIRMATION",
      event_type: "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
      data: { servicing_action_id: "s-1" },
    });
    expect(problems).toEqual([]);
    expect(asEvent(event, "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION").data).toEqual({ servicing_action_id: "s-1" });
  });
});

describe("odd bodies of known events", () => {
  it("read a data that is not an object as empty and report it", () => {
    const { event, problems } = accepted({ ...common, event_type: "POLICY_AVAILABLE", data: ["p-1"] });
    expect(asEvent(event, "POLICY_AVAILABLE").data).toEqual({ policy_id: null, policy_type: null });
    expect(kindsAt(problems, "data")).toEqual(["wrong_type"]);
  });

  it("read an absent data as empty without a problem", () => {
    const { event, problems } = accepted({ ...common, event_type: "MONITORING_RECONNECT" });
    expect(asEvent(event, "MONITORING_RECONNECT").data).toEqual({
      auth_status: null,
      reconnect_url: null,
      reconnect_token: null,
      options: [],
    });
    expect(problems).toEqual([]);
  });

  it("read the code methods a reconnect request stopped at", () => {
    const data = {
      auth_status: "IDENTITY_VERIFICATION_OPTIONS",
      reconnect_url: "https://x",
      reconnect_token: "t",
      options: [{ key: "sms-0", label: "Text" }],
    };
    const { event } = accepted({ ...common, event_type: "MONITORING_RECONNECT", data });
    expect(asEvent(event, "MONITORING_RECONNECT").data.options).toEqual([{ key: "sms-0", label: "Text" }]);
  });

  it("keep an undocumented pull status, as no problem", () => {
    const { event, problems } = accepted({ ...common, status: "ON_HOLD", event_type: "COMPLETE" });
    expect(event.status).toBe("ON_HOLD");
    expect(problems).toEqual([]);
  });
});
