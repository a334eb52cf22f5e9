import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { TEAM_AGENTS } from "@/sandbox/data/team";
import type { Sandbox } from "@/sandbox/server";
import { controlSandbox, startServiceSandbox } from "@/test/service-sandbox";
import type { ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { getPull, iteratePulls } from "./pulls-api";
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget } from "./widgets-api";

// Contract tests of the agency's links against the sandbox over real HTTP: the seeded links
// that every pull names, paging, create / change / delete, and each documented error.

const TEAM = "6a1f2e3d-4c5b-4a69-8877-665544332211";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  ({ sandbox, service } = await startServiceSandbox("widgets", { teamId: TEAM, seed: 31, pullCount: 36 }));
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await control("reset", {});
});

const control = (path: string, body: unknown) => controlSandbox(sandbox, path, body);

/** A request the client would refuse to send, straight to the sandbox. */
async function raw(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.baseUrl}/teams/${TEAM}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from("widgets:widgets-secret").toString("base64")}`,
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("widgets contract", () => {
  it("lists the team's three links, and every seeded pull names one of them by id and alias", async () => {
    const { value, problems } = await listWidgets(service);
    expect(problems).toEqual([]);
    expect(value.success).toBe(true);
    expect(value.widgets.map((w) => w.public_alias)).toEqual(["business-intake", "renewal-review", "get-a-quote"]);
    for (const widget of value.widgets) {
      expect(widget.public_url).toBe(`https://link.example.com/${widget.public_alias}`);
      expect(widget.agents.length).toBeGreaterThan(0);
      expect(widget.agents.every((a) => a.role === "ADMIN" || a.role === "AGENT")).toBe(true);
    }
    const byId = new Map(value.widgets.map((w) => [w.widget_id, w]));
    let count = 0;
    for await (const pull of iteratePulls(service)) {
      expect(byId.get(pull.widget_id ?? "")?.public_alias, `pull ${pull.pull_id}`).toBe(pull.public_alias);
      count++;
    }
    expect(count).toBe(36);
  });

  it("pages with limit and a widget-id cursor, and answers 400 VALIDATION_ERROR to a bad query", async () => {
    const first = await listWidgets(service, { limit: 1 });
    expect(first.value.widgets).toHaveLength(1);
    const next = await listWidgets(service, { limit: 5, before: first.value.widgets[0]?.widget_id });
    expect(next.value.widgets.map((w) => w.public_alias)).toEqual(["renewal-review", "get-a-quote"]);
    for (const query of ["limit=0", "limit=101", "limit=ten", "before=not-an-id", `before=${crypto.randomUUID()}`]) {
      expect(await raw("GET", `/widgets?${query}`), query).toMatchObject({
        status: 400,
        body: { error: "VALIDATION_ERROR" },
      });
    }
    // The client refuses such a query before any call.
    await expect(listWidgets(service, { limit: 0 })).rejects.toBeInstanceOf(z.ZodError);
  });

  it("creates, reads, changes and deletes a link, only under the team prefix", async () => {
    const created = await createWidget(service, {
      public_alias: "Partner-Referrals",
      company_name: "Harbor Point",
      brand_color_hex: "aa3300",
      agents: [TEAM_AGENTS[1]?.agent_id ?? ""],
    });
    expect(created.problems).toEqual([]);
    expect(created.value).toMatchObject({
      public_alias: "partner-referrals",
      public_url: "https://link.example.com/partner-referrals",
      brand_color_hex: "aa3300",
      is_sandbox: true,
    });
    expect(created.value.agents.map((a) => a.agent_id)).toEqual([TEAM_AGENTS[1]?.agent_id]);
    const id = created.value.widget_id;

    expect(await failure(getWidget({ ...service, teamId: null }, id))).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    const updated = await updateWidget(service, id, {
      intro_title: "Referred by a partner?",
      cobranded_intro_screen: true,
    });
    expect(updated.value).toMatchObject({
      intro_title: "Referred by a partner?",
      cobranded_intro_screen: true,
      brand_color_hex: "aa3300",
    });
    expect((await listWidgets(service)).value.widgets[0]?.widget_id).toBe(id);

    // A link made on the new alias carries the new widget's id.
    const link = await control("links", { username: "user_good", public_alias: "partner-referrals" });
    expect((await getPull(service, String(link.pull_id))).value.widget_id).toBe(id);

    await deleteWidget(service, id);
    expect(await failure(getWidget(service, id))).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(await failure(deleteWidget(service, id))).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("answers the documented create errors", async () => {
    expect(await failure(createWidget(service, { public_alias: "get-a-quote" }))).toMatchObject({
      status: 400,
      code: "ALREADY_EXISTS",
    });
    expect(await failure(createWidget(service, { agents: [crypto.randomUUID()] }))).toMatchObject({
      status: 400,
      code: "INVALID_AGENT_ID",
    });
    const renewal = (await listWidgets(service)).value.widgets.find((w) => w.public_alias === "renewal-review");
    expect(
      await failure(updateWidget(service, renewal?.widget_id ?? "", { public_alias: "get-a-quote" })),
    ).toMatchObject({ status: 400, code: "ALREADY_EXISTS" });
    for (const body of [
      { brand_color_hex: "#fff" },
      { public_alias: "a b" },
      { on_success_redirect_url: "javascript:alert(1)" },
      { unknown_field: 1 },
    ]) {
      expect(await raw("POST", "/widgets", body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: "INVALID_INPUT" },
      });
    }
    for (let i = 0; i < 7; i++) await createWidget(service, { public_alias: `extra-${i}` });
    const limited = await failure(createWidget(service, { public_alias: "one-too-many" }));
    expect(limited).toBeInstanceOf(ServiceError);
    expect(limited).toMatchObject({ status: 400, code: "WIDGET_LIMIT_EXCEEDED", retryable: false });
  });
});
