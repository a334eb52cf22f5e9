import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { FormState } from "@/lib/core/form-state";
import type { SessionUser } from "./session";

// The two guards on their own: what they answer before the action or handler runs, and how the
// action guard reads a form. The authorization matrix covers them on every real entry.

let current: SessionUser | null = null;
vi.mock("./session", () => ({ getSessionUser: async () => current }));
vi.mock("@/lib/database", () => ({ getDb: async () => ({ fake: "db" }) }));

const { formAction, guardedAction, formList, formText, formTextOrNull, formTextOrEmpty, SIGNED_OUT_MESSAGE, noInput } =
  await import("./action-guard");
const { withUser } = await import("./route-guard");

const agent: SessionUser = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "a@example.com",
  name: "Agent",
  role: "AGENT",
  sessionId: "s",
};
const admin: SessionUser = { ...agent, role: "ADMIN" };

function form(entries: Array<[string, string | Blob]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

beforeEach(() => {
  current = null;
});

describe("formAction", () => {
  const run = vi.fn(async ({ input }: { input: unknown }): Promise<FormState> => ({
    status: "done",
    message: JSON.stringify(input),
  }));
  const action = formAction(
    "users:manage",
    z.object({ name: formText(), role: formTextOrNull(), ids: formList(), id: formTextOrEmpty() }),
    run,
  );

  it("answers the one signed-out message, and runs nothing", async () => {
    expect(await action({ status: "idle" }, form([]))).toEqual({ status: "error", message: SIGNED_OUT_MESSAGE });
    expect(run).not.toHaveBeenCalled();
  });

  it("refuses a role the permission table refuses, before reading the form", async () => {
    current = agent;
    expect(await action({ status: "idle" }, form([["name", "x"]]))).toMatchObject({
      status: "error",
      code: "FORBIDDEN",
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("reads fields like the forms send them: first value, no files, no NUL, repeated names as lists", async () => {
    current = admin;
    const state = await action(
      { status: "idle" },
      form([
        ["name", "first"],
        ["name", "second"],
        ["role", ""],
        ["ids", "a"],
        ["ids", "b"],
        ["id", "x\u0000y"],
        ["__proto__", "p"],
      ]),
    );
    expect(JSON.parse(state.status === "done" ? state.message : "{}")).toEqual({
      name: "first",
      role: null,
      ids: ["a", "b"],
      id: "",
    });
    const file = await action({ status: "idle" }, form([["name", new Blob(["x"])]]));
    expect(JSON.parse(file.status === "done" ? file.message : "{}")).toEqual({ role: null, ids: [], id: "" });
    expect(run).toHaveBeenLastCalledWith(expect.objectContaining({ user: admin, db: { fake: "db" } }));
  });

  it("answers INVALID with the field when the form does not fit the schema", async () => {
    current = admin;
    const strict = formAction(
      "users:manage",
      z.object({ count: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.coerce.number().int()) }),
      run,
    );
    expect(await strict({ status: "idle" }, form([["count", "many"]]))).toMatchObject({
      status: "error",
      code: "INVALID",
      field: "count",
    });
  });
});

describe("guardedAction", () => {
  it("answers the caller's own refusal and runs nothing", async () => {
    const run = vi.fn(async () => "ran");
    const action = guardedAction("sync:run", noInput, (refusal) => `refused: ${refusal.reason}`, run);
    expect(await action()).toBe("refused: signed-out");
    current = agent;
    expect(await action()).toBe("refused: not-allowed");
    current = admin;
    expect(await action()).toBe("ran");
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe("withUser", () => {
  const handler = vi.fn(async ({ params, user }: { params: unknown; user: SessionUser }) =>
    Response.json({ params, user: user.id }),
  );
  const GET = withUser("events:view", handler, { params: z.object({ id: z.uuid() }) });
  const context = (id: string) => ({ params: Promise.resolve({ id }) });

  it("answers 404 JSON when signed out, not allowed, or the params do not parse", async () => {
    for (const [user, id] of [
      [null, agent.id],
      [agent, agent.id],
      [admin, "not-a-uuid"],
    ] as const) {
      current = user;
      const response = await GET(new Request("http://app/x"), context(id));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "NOT_FOUND" });
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it("hands the handler the user and the parsed params", async () => {
    current = admin;
    const response = await GET(new Request("http://app/x"), context(agent.id));
    expect(await response.json()).toEqual({ params: { id: agent.id }, user: admin.id });
  });

  it('answers a route\'s own refusal, and lets any signed-in user through "signed-in"', async () => {
    const health = withUser("signed-in", async () => Response.json({ ok: true }), {
      refused: () => Response.json({ error: "UNAUTHORIZED" }, { status: 401 }),
    });
    expect((await health()).status).toBe(401);
    current = agent;
    expect((await health()).status).toBe(200);
  });
});
