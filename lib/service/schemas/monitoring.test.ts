import { describe, expect, it } from "vitest";
import {
  monitoringDetailResponseSchema,
  monitoringEventsResponseSchema,
  monitoringListResponseSchema,
  monitoringReconnectTokenResponseSchema,
  monitoringRefreshResponseSchema,
  monitoringResponseSchema,
} from "./monitoring";
import { parseTolerant } from "./problems";
import { kindsAt, only } from "./test-support";

// The monitoring answers (service-notes, "Monitorings"): the object, its list, its refreshes
// and the events between two pulls of the same account.

const MONITORING = {
  monitoring_id: "7a4c3c2e-8f0e-4b53-9d4e-0a7d4f1c2b11",
  latest_pull_id: "af9d4a2e-f1f8-476a-a515-e16bbd432c91",
  status: "ACTIVE",
  next_pull_date: "2026-04-01T00:00:00.000Z",
  interval: "P1M",
  stop_after_date: null,
};

describe("a monitoring", () => {
  it("reads every documented field", () => {
    const result = parseTolerant(monitoringResponseSchema, { success: true, monitoring: MONITORING });
    expect(result).toEqual({ ok: true, value: { success: true, monitoring: MONITORING }, problems: [] });
  });

  it("keeps an undocumented status, as no problem", () => {
    const result = parseTolerant(monitoringResponseSchema, {
      success: true,
      monitoring: { ...MONITORING, status: "PAUSED" },
    });
    expect(result.ok && result.value.monitoring.status).toBe("PAUSED");
    expect(result.ok && result.problems).toEqual([]);
  });

  it("fails without a monitoring id, since then nothing can be managed", () => {
    expect(parseTolerant(monitoringResponseSchema, { success: true, monitoring: { status: "ACTIVE" } }).ok).toBe(false);
  });
});

describe("GET /monitorings", () => {
  it("keeps usable monitorings and reports one without an id", () => {
    const result = parseTolerant(monitoringListResponseSchema, {
      monitorings_count: 2,
      monitorings: [MONITORING, { status: "STOPPED" }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.monitorings_count).toBe(2);
    expect(only(result.value.monitorings).monitoring_id).toBe(MONITORING.monitoring_id);
    expect(kindsAt(result.problems, "monitorings[1]")).toEqual(["dropped_item"]);
  });

  it("fails without the list", () => {
    expect(parseTolerant(monitoringListResponseSchema, { monitorings_count: 0 }).ok).toBe(false);
  });
});

describe("GET /monitorings/:id", () => {
  it("reads the refreshes listed with with_pulls", () => {
    const pulls = [
      {
        pull_id: "af9d4a2e-f1f8-476a-a515-e16bbd432c91",
        status: "SUCCESS",
        monitoring_status: "COMPLETED",
        created_at: "2026-03-01T10:00:00.000Z",
        first_name: "Clark",
      },
    ];
    const result = parseTolerant(monitoringDetailResponseSchema, { monitoring: MONITORING, pulls });
    expect(result.ok && result.value.pulls).toEqual(pulls);
    expect(result.ok && result.problems).toEqual([]);
  });

  it("reads an answer without pulls as an empty list", () => {
    const result = parseTolerant(monitoringDetailResponseSchema, { monitoring: MONITORING });
    expect(result.ok && result.value.pulls).toEqual([]);
  });
});

describe("refresh and reconnect token", () => {
  it("refresh answers the new pull id", () => {
    expect(monitoringRefreshResponseSchema.parse({ pull_id: "af9d4a2e-f1f8-476a-a515-e16bbd432c91" }).pull_id).toBe(
      "af9d4a2e-f1f8-476a-a515-e16bbd432c91",
    );
    expect(monitoringRefreshResponseSchema.safeParse({}).success).toBe(false);
  });

  it("a reconnect token answer carries url and token", () => {
    const answer = {
      pull_id: "p",
      reconnect_url: "https://app.example/c/demo/reconnect?reconnectToken=t",
      reconnect_token: "t",
    };
    expect(monitoringReconnectTokenResponseSchema.parse(answer)).toEqual(answer);
  });
});

describe("GET /monitorings/:id/events", () => {
  it("reads events with their changes and documents", () => {
    const body = {
      previous_pull_id: "b2cc89fc-2064-4259-bb61-460924fe115f",
      latest_pull_id: "af9d4a2e-f1f8-476a-a515-e16bbd432c91",
      events: [
        {
          type: "ENDORSEMENT",
          changes: [
            {
              schema: "POLICY",
              type: "UPDATE",
              before: { total_premium_cents: 51400 },
              after: { total_premium_cents: 62100 },
            },
            {
              schema: "VEHICLE",
              type: "CREATE",
              before: null,
              after: { vehicle_id: "3f7c2f44-51b6-4292-a502-f353ed0404f9" },
            },
          ],
          documents: [{ document_id: "2754c9f8-a5b0-4282-a1a1-0ef29a97dd09" }],
        },
      ],
    };
    expect(parseTolerant(monitoringEventsResponseSchema, body)).toEqual({ ok: true, value: body, problems: [] });
  });

  it("reads a bare document id as a document, so every event lists documents alike", () => {
    const result = parseTolerant(monitoringEventsResponseSchema, {
      events: [{ type: "RENEWAL", documents: ["doc-1", { document_id: "doc-2" }, 5] }],
    });
    expect(result.ok && only(result.value.events).documents).toEqual([
      { document_id: "doc-1" },
      { document_id: "doc-2" },
    ]);
    expect(result.ok && kindsAt(result.problems, "events[0].documents[2]")).toEqual(["dropped_item"]);
  });

  it("keeps undocumented event types and changed resources, as no problem", () => {
    const body = {
      events: [
        {
          type: "POLICY_MERGED",
          changes: [{ schema: "LOCATION", type: "UPDATE", before: {}, after: {} }],
          documents: [],
        },
      ],
    };
    const result = parseTolerant(monitoringEventsResponseSchema, body);
    expect(result.ok && only(result.value.events).type).toBe("POLICY_MERGED");
    expect(result.ok && only(only(result.value.events).changes).schema).toBe("LOCATION");
    expect(result.ok && result.problems).toEqual([]);
  });

  it("knows BENEFICIARY changes, which the service documents", () => {
    const result = parseTolerant(monitoringEventsResponseSchema, {
      events: [{ type: "ENDORSEMENT", changes: [{ schema: "BENEFICIARY", type: "CREATE", before: null, after: {} }] }],
    });
    expect(result.ok && result.problems).toEqual([]);
  });
});
