import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { monitoringEventsResponseSchema } from "./monitoring";
import { parseTolerant } from "./problems";
import { parseErrorBody, successResponseSchema } from "./responses";
import { parseWebhookEvent } from "./webhooks";
import { only } from "./test-support";

// The webhook, monitoring and small response examples the real service publishes
// (lib/service/fixtures/real, see its README). The pull examples are exercised end to end in
// lib/pulls/real-fixtures.test.ts.

const ROOT = join(process.cwd(), "lib/service/fixtures/real");
const load = (file: string): unknown => JSON.parse(readFileSync(join(ROOT, file), "utf8"));
const filesIn = (folder: string) => readdirSync(join(ROOT, folder)).filter((name) => name.endsWith(".json"));

describe("published monitoring events", () => {
  it("there are the five published examples", () => {
    expect(filesIn("monitoring")).toHaveLength(5);
  });

  for (const file of filesIn("monitoring")) {
    it(`${file} parses whole, without problems`, () => {
      const body = load(`monitoring/${file}`);
      const result = parseTolerant(monitoringEventsResponseSchema, body);
      // Nothing is lost or changed (documents are already `{ document_id }` objects); an
      // absent documents list reads as empty.
      expect(result.ok && result.value).toMatchObject(body as object);
      expect(result.ok && result.problems).toEqual([]);
    });
  }
});

describe("published webhook bodies", () => {
  it("COMPLETE reads its envelope, and keeps the POLICY_AVAILABLE fields the template shows in data", () => {
    const result = parseWebhookEvent(load("webhooks/complete.json"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      event_type: "COMPLETE",
      is_known_event: true,
      pull_id: "<PULL_ID>",
      status: "SUCCESS",
      meta_data: {},
    });
    expect(result.value.data).toEqual({
      policy_id: "<POLICY_ID>",
      policy_type: "<POLICY_TYPE>",
      initial_pull_id: "<PULL_ID>",
    });
    expect(result.problems).toEqual([]);
  });

  it("MONITORING_RECONNECT gives the reconnect url and token, and the monitoring", () => {
    const result = parseWebhookEvent(load("webhooks/monitoring-reconnect.json"));
    expect(result.ok && result.value).toMatchObject({
      event_type: "MONITORING_RECONNECT",
      is_monitored: true,
      monitoring: { initial_pull_id: "<PULL_ID>", monitoring_id: "<MONITORING_ID>" },
      data: { auth_status: "NOT_AUTHENTICATED", reconnect_token: "x-reconnect-token-x" },
    });
    expect(result.ok && result.problems).toEqual([]);
  });

  it("MONITORING_EVENTS carries the event whole", () => {
    const body = load("webhooks/monitoring-events.json") as { data: unknown };
    const result = parseWebhookEvent(body);
    expect(result.ok && result.value.event_type).toBe("MONITORING_EVENTS");
    expect(result.ok && result.value.data).toEqual(body.data);
    expect(result.ok && result.problems).toEqual([]);
  });
});

describe("published small answers", () => {
  it("each error example reads as its code", () => {
    const codes = ["get-pull-400", "get-pull-401", "get-pull-403"].map(
      (name) => parseErrorBody(load(`responses/${name}.json`))?.error,
    );
    expect(codes).toEqual(["VALIDATION_ERROR", "UNAUTHORIZED", "SUBSCRIPTION_INACTIVE"]);
  });

  it("the PATCH example confirms", () => {
    expect(only([successResponseSchema.parse(load("responses/patch-pull-200.json"))]).success).toBe(true);
  });
});
