import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { monitorings, pulls, userSessions, users, webhookEvents } from "@/db/schema";
import { formFields } from "@/lib/auth/action-guard";
import { storePull } from "@/lib/ingest/store-pull";
import { generatePulls } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { describeForm, fingerprint, hostileForm, hostileValue, type HostileValue } from "./hostile-input";

// Every server action, called by an admin (who passes every permission check, so the input
// reaches the deepest code) with hostile forms: fields missing, of the wrong kind (files,
// several values), huge, injection strings, odd unicode, mixed with real ids and valid values
// so that some calls get far. Each must answer with a form state (or nothing, for the void
// actions) and never throw; a refusal must leave every table as it was, and its message must be
// the app's own words, not a database's or a stack's. The session is the only stand-in, as in
// lib/auth/authorization-matrix.test.ts.

// The service must not be reachable: calls that get that far fail fast and change nothing.
process.env.SERVICE_BASE_URL = "http://127.0.0.1:9/api/v1.0.0";
process.env.SERVICE_TIMEOUT_MS = "1000";

let current: { id: string } | null = null;
/** Each user's open server-side session (user_sessions), which the session cookie names. */
const sessions: Record<string, string> = {};
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: sessions[current.id] } : null),
  default: () => null,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
// Public actions read the caller's address for their rate limits.
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-forwarded-for": "192.0.2.77" }) }));

let database: TestDatabase;
// Fixed ids, so that the values mixed into the forms stay real after the rows are reset.
const ids = {
  admin: "0f000000-0000-4000-8000-00000000000a",
  manager: "0f000000-0000-4000-8000-00000000000b",
  agent: "0f000000-0000-4000-8000-00000000000c",
  ownPull: "",
  queuePull: "",
  failedEvent: "",
};

async function baseline() {
  await database.db.execute(
    sql`truncate audit_events, webhook_events, sync_runs, assignment_settings, monitorings, pull_versions, policies, pulls, users restart identity cascade`,
  );
  await database.db.insert(users).values([
    { id: ids.admin, email: "admin@f.test", name: "Admin", role: "ADMIN", passwordHash: "x" },
    { id: ids.manager, email: "manager@f.test", name: "Manager", role: "MANAGER", passwordHash: "x" },
    { id: ids.agent, email: "agent@f.test", name: "Agent", role: "AGENT", passwordHash: "x" },
  ]);
  for (const id of [ids.admin, ids.manager, ids.agent]) {
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: id, expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    sessions[id] = session?.id ?? "";
  }
  const sample = generatePulls(78, 6, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
  for (const pull of sample.slice(0, 2)) await storePull(database.db, pull);
  ids.ownPull = sample[0]?.pull_id ?? "";
  ids.queuePull = sample[1]?.pull_id ?? "";
  await database.db.update(pulls).set({ assigneeId: ids.agent }).where(eq(pulls.pullId, ids.ownPull));
  await database.db
    .insert(monitorings)
    .values({ monitoringId: "mon_fuzz", initialPullId: ids.ownPull, status: "ACTIVE", interval: "P1M" });
  const [event] = await database.db
    .insert(webhookEvents)
    .values({ dedupKey: "k", eventType: "COMPLETE", pullId: ids.queuePull, status: "FAILED", payload: {} })
    .returning({ id: webhookEvents.id });
  ids.failedEvent = String(event?.id ?? 0);
}

/** Real ids and valid values, mixed into the hostile ones so that some calls get past validation. */
const usualValues = () => [
  ids.admin,
  ids.manager,
  ids.agent,
  ids.ownPull,
  ids.queuePull,
  ids.failedEvent,
  "mon_fuzz",
  "WON",
  "LOST",
  "WORKING",
  "AGENT",
  "MANAGER",
  "ADMIN",
  "ROUND_ROBIN",
  "RULES",
  "OFF",
  "TX",
  "AUTO",
  "assign",
  "monitor",
  "unmonitor",
  "M",
  "D",
  "Y",
  "1",
  "30",
  "1200",
  "1,200.50",
  "2027-01-01",
  "a-long-password-1",
  "new@f.test",
];

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesNamed(full, name) : entry === name ? [full] : [];
  });
}

/**
 * Every actions.ts, its exported actions, and the form fields read in its source (rows of a
 * list: the first two): `field(formData, …)` in the public actions that have no user guard. A
 * guarded action reads the fields of its schema (lib/auth/action-guard.ts `formFields`).
 */
const ACTION_FILES = filesNamed(path.join(process.cwd(), "app"), "actions.ts").map((file) => {
  const source = readFileSync(file, "utf8");
  const fields = new Set<string>();
  for (const m of source.matchAll(/(?:field\(formData, |formData\.get(?:All)?\()"([^"]+)"/g)) fields.add(m[1] ?? "");
  for (const m of source.matchAll(/field\(formData, `([^`$]*)\$\{\w+\}([^`]*)`/g))
    for (const i of [0, 1]) fields.add(`${m[1]}${i}${m[2]}`);
  const actions = [...source.matchAll(/export (?:async function|const) (\w+)/g)].map((m) => m[1] ?? "");
  return { file, module: path.relative(process.cwd(), file).replace(/\.ts$/, ""), fields: [...fields], actions };
});

/** Actions that take no input: nothing to fuzz (their permission checks are in the matrix). */
const NO_INPUT = [
  "retryAllFailedAction",
  "startSyncAction",
  "registerWebhookAction",
  "sendDigestsNowAction",
  "renewCalendarFeedAction",
  "turnOffCalendarFeedAction",
  "startSecondFactorAction",
  "startPasskeyAction",
];

type Action = (...args: unknown[]) => Promise<unknown>;
const IDLE = { status: "idle" } as const;
const RAW_ERROR =
  /Failed query|syntax error|violates|duplicate key|invalid input syntax|Invalid input: expected|received NaN|at .*\(.*:\d+:\d+\)|TypeError|ReferenceError|ZodError|undefined is not|Cannot read prop/i;

beforeAll(async () => {
  database = await createTestDatabase();
  (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
    connection: Promise.resolve(database),
  };
  await baseline();
  current = { id: ids.admin };
});
afterAll(async () => {
  await database?.close();
});

describe("server actions under hostile forms, called by an admin", () => {
  it("finds the actions it fuzzes, and the fields each one reads", async () => {
    const names = ACTION_FILES.flatMap((f) => f.actions);
    expect(names).toContain("setStageAction");
    expect(names).toContain("createUserAction");
    for (const { module, fields, actions } of ACTION_FILES) {
      const loaded = (await import(`@/${module}`)) as Record<string, Action>;
      for (const name of actions.filter((a) => !NO_INPUT.includes(a)))
        expect([...fields, ...formFields(loaded[name] ?? {})], `${module} ${name}`).not.toEqual([]);
    }
  });

  for (const { module, fields, actions } of ACTION_FILES) {
    for (const name of actions.filter((a) => !NO_INPUT.includes(a))) {
      it(`${module.replace(/^app\/\(app\)\//, "")} ${name}`, async () => {
        const action = ((await import(`@/${module}`)) as Record<string, Action>)[name];
        expect(typeof action).toBe("function");
        const read = [...new Set([...fields, ...formFields(action ?? {})])];
        const form = fc.record(
          Object.fromEntries(read.map((f) => [f, hostileValue(usualValues())])) as Record<
            string,
            fc.Arbitrary<HostileValue>
          >,
        );
        await fc.assert(
          fc.asyncProperty(form, async (values) => {
            const before = await fingerprint(database.db);
            const data = hostileForm(values);
            let result: unknown;
            try {
              result = action?.length === 1 ? await action(data) : await action?.(IDLE, data);
            } catch (error) {
              throw new Error(
                `${name} threw on ${describeForm(values)}: ${error instanceof Error ? error.stack : String(error)}`,
              );
            }
            const after = await fingerprint(database.db);
            if (result === undefined) {
              // Void actions say nothing; only a real event id may change a row.
              const named = Object.values(values).flatMap((v) =>
                v.kind === "one" ? [v.value] : v.kind === "many" ? v.values : [],
              );
              if (after !== before)
                expect(
                  named.some((v) => v.trim() !== "" && Number(v) === Number(ids.failedEvent)),
                  describeForm(values),
                ).toBe(true);
            } else {
              const state = result as { status?: string; message?: string };
              expect(["done", "error"], describeForm(values)).toContain(state.status);
              expect(typeof state.message).toBe("string");
              if (state.status === "error") {
                expect(state.message, describeForm(values)).not.toMatch(RAW_ERROR);
                expect(state.message?.length ?? 0, describeForm(values)).toBeLessThan(2_000);
                expect(after, `refused, yet rows changed: ${describeForm(values)}`).toBe(before);
              }
            }
            // Whatever got through, start the next case from the same rows.
            if (after !== before) await baseline();
          }),
          { numRuns: 60, seed: 20261123 },
        );
      });
    }
  }
});
