import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { FormState } from "@/lib/core/form-state";
import type { Actor } from "@/lib/core/actor";

// The two guards on their own: what they answer before the action or handler runs, and how the
// action guard reads a form. The authorization matrix covers them on every real entry.

let current: Actor | null = null;
/** Whether the agency requires a second factor the current user has not set up yet. */
let missingFactor = false;
vi.mock("./session", () => ({ getSessionUser: async () => current, secondFactorMissing: async () => missingFactor }));
vi.mock("@/lib/database", () => ({ getDb: async () => ({ fake: "db" }), rememberWrite: async () => {} }));

const {
  formAction,
  formFields,
  guardedAction,
  INVALID_FORM_MESSAGE,
  SECOND_FACTOR_FIRST_MESSAGE,
  SIGNED_OUT_MESSAGE,
  noInput,
} = await import("./action-guard");
const { withUser } = await import("./route-guard");

const agent: Actor = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Agent",
  role: "AGENT",
  sessionId: "s",
};
const admin: Actor = { ...agent, role: "ADMIN" };

function form(entries: Array<[string, string | Blob]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

beforeEach(() => {
  current = null;
  missingFactor = false;
});

describe("formAction", () => {
  const run = vi.fn(async ({ input }: { input: unknown }): Promise<FormState> => ({
    status: "done",
    message: JSON.stringify(input),
  }));
  // A command's input schema, as the commands in lib/ write theirs.
  const schema = z.object({
    name: z.string().trim().max(20, "Keep the name short."),
    note: z.string().max(5).optional(),
    assigneeId: z.uuid("Choose someone from the list.").nullable(),
    expectedAssigneeId: z.uuid().nullable().optional(),
    ids: z.array(z.string()),
    count: z.coerce.number({ error: "Give the count as a number." }).int("Use a whole number.").optional(),
    kind: z.enum(["A", "B"], { message: "Choose A or B." }).optional(),
  });
  const action = formAction("users:manage", schema, run);
  const submit = async (entries: Array<[string, string | Blob]>) => {
    const state = await action({ status: "idle" }, form(entries));
    return state.status === "done" ? JSON.parse(state.message) : state;
  };

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

  it("reads the form into the command's schema: first value, no files, no NUL, repeated names as lists", async () => {
    current = admin;
    expect(
      await submit([
        ["name", " first "],
        ["name", "second"],
        ["ids", "a"],
        ["ids", "b"],
        ["note", "x\u0000y"],
        ["count", "12"],
      ]),
    ).toEqual({ name: "first", assigneeId: null, ids: ["a", "b"], count: 12 });
    expect(await submit([["name", new Blob(["x"])]])).toEqual({ name: "", assigneeId: null, ids: [] });
    expect(run).toHaveBeenLastCalledWith(expect.objectContaining({ user: admin, db: { fake: "db" } }));
  });

  it("reads an empty field as null where the schema takes null, else as not given where it is optional", async () => {
    current = admin;
    expect(
      await submit([
        ["name", "n"],
        ["note", ""],
        ["assigneeId", ""],
        ["count", ""],
        ["kind", ""],
      ]),
    ).toEqual({ name: "n", assigneeId: null, ids: [] });
    // Sent empty, a nullable optional field says "nobody"; not sent, it says nothing.
    expect(
      await submit([
        ["name", "n"],
        ["expectedAssigneeId", ""],
      ]),
    ).toMatchObject({ expectedAssigneeId: null });
    expect(await submit([["name", "n"]])).not.toHaveProperty("expectedAssigneeId");
  });

  it("answers a refused field with the schema's own message for it, and runs nothing", async () => {
    current = admin;
    run.mockClear();
    expect(await submit([["count", "many"]])).toEqual({
      status: "error",
      code: "INVALID",
      message: "Give the count as a number.",
      field: "count",
    });
    expect(await submit([["count", "1.5"]])).toMatchObject({ message: "Use a whole number.", field: "count" });
    expect(await submit([["kind", "C"]])).toMatchObject({ message: "Choose A or B.", field: "kind" });
    expect(await submit([["assigneeId", "nobody"]])).toMatchObject({
      message: "Choose someone from the list.",
      field: "assigneeId",
    });
    expect(await submit([["name", "x".repeat(21)]])).toMatchObject({ message: "Keep the name short.", field: "name" });
    expect(run).not.toHaveBeenCalled();
  });

  it("answers the app's words where the schema has none, never a validator's", async () => {
    current = admin;
    expect(await submit([["expectedAssigneeId", "not-a-uuid"]])).toMatchObject({
      message: INVALID_FORM_MESSAGE,
      field: "expectedAssigneeId",
    });
    expect(await submit([["note", "too long"]])).toMatchObject({ message: "Use at most 5 characters.", field: "note" });
  });

  it("ignores fields the schema does not name, and keeps a hostile string as text", async () => {
    current = admin;
    const hostile = `'; drop table users; -- <script>alert(1)</script> {{7*7}} \u202e`;
    expect(
      await submit([
        ["name", "n"],
        ["role", "ADMIN"],
        ["__proto__", "p"],
        ["constructor", "c"],
        ["ids", hostile],
      ]),
    ).toEqual({ name: "n", assigneeId: null, ids: [hostile] });
  });

  it("reads numbered rows into a list of rows, leaving out the empty ones, and names a wrong row's input", async () => {
    current = admin;
    const rows = formAction(
      "settings:manage",
      z.object({
        rules: z.array(z.object({ state: z.string().length(2, "Two letters.").optional(), to: z.string() })),
      }),
      run,
    );
    const state = await rows(
      { status: "idle" },
      form([
        ["rules.1.state", "TX"],
        ["rules.1.to", "b"],
        ["rules.0.to", "a"],
        ["rules.2.state", ""],
        ["rules.2.to", ""],
        ["rules.x.to", "c"],
      ]),
    );
    expect(JSON.parse(state.status === "done" ? state.message : "{}")).toEqual({
      rules: [{ to: "a" }, { state: "TX", to: "b" }],
    });
    expect(await rows({ status: "idle" }, form([["rules.0.state", "Texas"]]))).toMatchObject({
      message: "Two letters.",
      field: "rules.0.state",
    });
    expect(formFields(rows)).toEqual(["rules.0.state", "rules.0.to", "rules.1.state", "rules.1.to"]);
  });

  it("reads an object field from the inputs named after it, and names a wrong one's input", async () => {
    current = admin;
    const nested = formAction(
      "settings:manage",
      z.object({
        limits: z
          .object({
            default: z.coerce.number({ error: "Give the default." }),
            AUTO: z.coerce.number({ error: "Give a number for auto." }).optional(),
          })
          .catchall(z.number()),
      }),
      run,
    );
    const state = await nested(
      { status: "idle" },
      form([
        ["limits.default", "10"],
        ["limits.AUTO", ""],
        ["limits.BOAT", "3"],
        ["limits", "ignored"],
      ]),
    );
    expect(JSON.parse(state.status === "done" ? state.message : "{}")).toEqual({ limits: { default: 10 } });
    expect(
      await nested(
        { status: "idle" },
        form([
          ["limits.default", "1"],
          ["limits.AUTO", "lots"],
        ]),
      ),
    ).toMatchObject({ message: "Give a number for auto.", field: "limits.AUTO" });
    expect(formFields(nested)).toEqual(["limits.default", "limits.AUTO"]);
  });

  it("reads the form into the object under a schema's transform, and hands on what it makes", async () => {
    current = admin;
    const shaped = formAction(
      "settings:manage",
      z
        .object({ dollars: z.coerce.number({ error: "Give dollars." }), on: z.array(z.string()) })
        .transform(({ dollars, on }) => ({ cents: dollars * 100, off: ["a", "b"].filter((id) => !on.includes(id)) })),
      run,
    );
    const state = await shaped(
      { status: "idle" },
      form([
        ["dollars", "12"],
        ["on", "a"],
      ]),
    );
    expect(JSON.parse(state.status === "done" ? state.message : "{}")).toEqual({ cents: 1200, off: ["b"] });
    expect(await shaped({ status: "idle" }, form([["dollars", "x"]]))).toMatchObject({
      message: "Give dollars.",
      field: "dollars",
    });
    expect(formFields(shaped)).toEqual(["dollars", "on"]);
  });

  it("names the fields it reads, for tests that post forms to it", () => {
    expect(formFields(action)).toEqual(["name", "note", "assigneeId", "expectedAssigneeId", "ids", "count", "kind"]);
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
  const handler = vi.fn(async ({ params, user }: { params: unknown; user: Actor }) =>
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

describe("a user who must set up a second factor first", () => {
  it("gets no action but enrolment, whatever their role allows", async () => {
    const run = vi.fn(async (): Promise<FormState> => ({ status: "done", message: "ran" }));
    const sync = formAction("sync:run", noInput, run);
    const own = formAction("signed-in", noInput, run);
    const enrol = formAction("enrolment", noInput, run);
    current = admin;
    missingFactor = true;
    for (const action of [sync, own])
      expect(await action({ status: "idle" }, form([]))).toEqual({
        status: "error",
        message: SECOND_FACTOR_FIRST_MESSAGE,
        code: "FORBIDDEN",
      });
    expect(run).not.toHaveBeenCalled();
    expect(await enrol({ status: "idle" }, form([]))).toEqual({ status: "done", message: "ran" });
    missingFactor = false;
    expect(await sync({ status: "idle" }, form([]))).toEqual({ status: "done", message: "ran" });
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("is refused by every route but enrolment, and enrolment still needs a session", async () => {
    const csv = withUser("reports:view", async () => Response.json({ ok: true }));
    const mine = withUser("signed-in", async () => Response.json({ ok: true }));
    const enrol = withUser("enrolment", async () => Response.json({ ok: true }));
    expect((await enrol()).status).toBe(404);
    current = admin;
    missingFactor = true;
    expect((await csv()).status).toBe(404);
    expect((await mine()).status).toBe(404);
    expect((await enrol()).status).toBe(200);
    missingFactor = false;
    expect((await csv()).status).toBe(200);
  });

  it("is told so by a guarded action's own refusal", async () => {
    const action = guardedAction(
      "signed-in",
      noInput,
      (refusal) => refusal.reason,
      async () => "ran",
    );
    current = agent;
    missingFactor = true;
    expect(await action()).toBe("second-factor-required");
  });
});
