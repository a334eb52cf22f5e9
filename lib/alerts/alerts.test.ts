import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, users } from "@/db/schema";
import { storePull } from "@/lib/ingest/store-pull";
import { assignPulls } from "@/lib/workflow/assignment";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import { runDailyDigest, sendDigests } from "./digest";
import { countOpenAlerts, listAlerts, moveAlert } from "./inbox";
import { listOutbox } from "./mailer";

// From a refresh to the agent's inbox and digest, on a real database: a renewal premium up 25%
// raises one alert for the account's agent, however often the refresh is delivered; the agent
// (and not another) sees it, snoozes it, marks it done; the digest mails it once.

let database: TestDatabase;
let staff: Awaited<ReturnType<typeof createStaff>>;
let base: SandboxPull;
let outboxDir: string;
const session = (actor: { id: string; name: string; role: "AGENT" | "MANAGER" | "ADMIN" }) => ({
  ...actor,
  email: `${actor.id}@agency.test`,
  sessionId: "test-session",
});

/** The account's pull with its first priced policy's premium multiplied by `factor`. */
type PricedPolicy = { status?: string; total_premium_cents?: number | null };
const policiesOf = (pull: SandboxPull) => pull.policies as PricedPolicy[];

function withPremium(pull: SandboxPull, factor: number, extra: Partial<SandboxPull> = {}): SandboxPull {
  const policies = policiesOf(pull).map((p, i) =>
    i === 0 ? { ...p, total_premium_cents: Math.round((p.total_premium_cents ?? 0) * factor) } : p,
  );
  return { ...pull, ...extra, policies } as SandboxPull;
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  const found = generatePulls(41, 30, new Date("2026-06-15T00:00:00Z")).find(
    (p) =>
      p.status === "SUCCESS" &&
      !p.parent_pull_id &&
      (policiesOf(p)[0]?.total_premium_cents ?? 0) > 0 &&
      policiesOf(p)[0]?.status === "ACTIVE",
  );
  if (!found) throw new Error("no priced pull to build on");
  base = {
    ...found,
    account_identifier: "acct_alerts_1",
    created_at: "2026-03-01T10:00:00Z",
    first_name: "<b>Zoë</b>",
  };
  outboxDir = mkdtempSync(path.join(tmpdir(), "coverdesk-outbox-"));
});
afterAll(async () => {
  await database?.close();
  rmSync(outboxDir, { recursive: true, force: true });
});

const mail = () => ({
  mail: { smtpUrl: null, from: "Coverdesk <alerts@agency.test>", outboxDir },
  auth: { secret: "x", url: "https://coverdesk.agency.test", sessionMaxSeconds: 3600 },
});

describe("alerts from a refresh", () => {
  let refresh: SandboxPull;

  it("raises one alert for the account's agent when the renewal premium jumps, however often it arrives", async () => {
    await storePull(database.db, base);
    expect(
      await assignPulls(database.db, staff.manager, { pullIds: [base.pull_id], assigneeId: staff.agent.id }),
    ).toMatchObject({ ok: true });
    refresh = withPremium(base, 1.25, { pull_id: randomUUID(), created_at: "2026-06-01T10:00:00Z" });
    await storePull(database.db, refresh);
    await storePull(database.db, refresh); // redelivered: unchanged
    await storePull(database.db, { ...refresh, email: "changed@example.com" }); // reprocessed with another change
    const raised = await database.db.select().from(alerts);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ kind: "PREMIUM_JUMP", pullId: refresh.pull_id, assigneeId: staff.agent.id });
    expect(raised[0]?.headline).toMatch(/, up 25% \(\$[\d,]+\.\d\d a year\)$/);
  });

  it("shows it to its agent and not to another; snoozed it leaves the badge, done it leaves the inbox", async () => {
    const agent = session(staff.agent);
    const other = session(staff.otherAgent);
    expect(await countOpenAlerts(database.db, agent)).toBe(1);
    expect(await countOpenAlerts(database.db, other)).toBe(0);
    const [row] = await listAlerts(database.db, agent, { view: "open", whose: "mine" });
    expect(row?.assigneeName).toBe("Ann Agent");
    // Another agent cannot touch it, even by id: it reads as missing.
    expect(await moveAlert(database.db, other, { alertId: row?.id ?? 0, move: "done" })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await listAlerts(database.db, other, { view: "open", whose: "everyone" })).toEqual([]);
    expect(await listAlerts(database.db, session(staff.manager), { view: "open", whose: "everyone" })).toHaveLength(1);

    const now = new Date();
    expect(await moveAlert(database.db, agent, { alertId: row?.id ?? 0, move: "snooze-1" }, now)).toEqual({ ok: true });
    expect(await countOpenAlerts(database.db, agent, now)).toBe(0);
    expect(await countOpenAlerts(database.db, agent, new Date(now.getTime() + 25 * 3_600_000))).toBe(1); // back after a day
    expect(await moveAlert(database.db, agent, { alertId: row?.id ?? 0, move: "done" })).toEqual({ ok: true });
    expect(await listAlerts(database.db, agent, { view: "open", whose: "mine" })).toEqual([]);
    expect(await listAlerts(database.db, agent, { view: "done", whose: "mine" })).toHaveLength(1);
    expect(await moveAlert(database.db, agent, { alertId: row?.id ?? 0, move: "delete" })).toMatchObject({
      code: "INVALID",
    });
    await moveAlert(database.db, agent, { alertId: row?.id ?? 0, move: "reopen" });
  });

  it("mails each alert once, in its agent's digest, with hostile names escaped", async () => {
    const first = await sendDigests(database.db, mail());
    expect(first).toEqual({ mails: 1, alerts: 1 });
    const [message] = await listOutbox(mail().mail);
    expect(message?.to).toBe("agent@agency.test");
    expect(message?.subject).toMatch(/^Coverdesk: 1 alert for \d{4}-\d{2}-\d{2}: .+ up 25%/);
    expect(message?.text).toContain(`https://coverdesk.agency.test/pulls/${refresh.pull_id}`);
    const raw = readFileSync(path.join(outboxDir, readdirSync(outboxDir)[0] ?? ""), "utf8");
    // The HTML part shows the holder's name as text; the plain part carries it as written.
    const html = raw.slice(raw.indexOf("Content-Type: text/html"));
    expect(html).toContain("&lt;b&gt;Zo");
    expect(html).not.toContain("<b>Zo");
    expect(await sendDigests(database.db, mail())).toEqual({ mails: 0, alerts: 0 });
  });

  it("sends the day's digest once across instances, not before the digest hour", async () => {
    const early = new Date("2030-01-02T05:00:00Z");
    expect(await runDailyDigest(database.db, mail(), { now: early })).toEqual({ sent: false, why: "before-hour" });
    const later = new Date("2030-01-02T08:00:00Z");
    const [a, b] = await Promise.all([
      runDailyDigest(database.db, mail(), { now: later }),
      runDailyDigest(database.db, mail(), { now: later }),
    ]);
    expect([a, b].filter((r) => r.sent)).toHaveLength(1);
    expect([a, b].filter((r) => !r.sent)).toEqual([{ sent: false, why: "already-sent" }]);
  });

  it("gives an unassigned account's alert, or a departed agent's, to the managers", async () => {
    const lone = { ...withPremium(base, 1), pull_id: randomUUID(), account_identifier: "acct_alerts_2" };
    await storePull(database.db, lone);
    await storePull(database.db, {
      ...withPremium(lone, 2),
      pull_id: randomUUID(),
      created_at: "2026-07-01T10:00:00Z",
    } as SandboxPull);
    await database.db.update(users).set({ isActive: true }).where(eq(users.id, staff.manager.id));
    const result = await sendDigests(database.db, mail());
    expect(result).toEqual({ mails: 1, alerts: 1 });
    const [latest] = await listOutbox(mail().mail);
    expect(latest?.to).toBe("manager@agency.test");
  });
});

describe("alerts follow the pull's current assignment", () => {
  let refresh: SandboxPull;
  let alertId = 0;

  it("lets only the agent who claims a queue alert's pull read it, move it and get it by mail", async () => {
    const first = { ...withPremium(base, 1), pull_id: randomUUID(), account_identifier: "acct_alerts_3" };
    await storePull(database.db, first as SandboxPull);
    refresh = withPremium(first as SandboxPull, 1.5, { pull_id: randomUUID(), created_at: "2026-08-01T10:00:00Z" });
    await storePull(database.db, refresh);
    const [raised] = await database.db.select().from(alerts).where(eq(alerts.pullId, refresh.pull_id));
    expect(raised?.assigneeId).toBeNull();
    alertId = raised?.id ?? 0;
    const agent = session(staff.agent);
    const other = session(staff.otherAgent);
    // In the queue, both agents see it.
    expect((await listAlerts(database.db, other, { view: "open", whose: "queue" })).map((a) => a.id)).toContain(
      alertId,
    );

    // Ann claims the refreshed pull: the alert is hers now, and no longer the queue's.
    expect(
      await assignPulls(database.db, agent, { pullIds: [refresh.pull_id], assigneeId: staff.agent.id }),
    ).toMatchObject({ ok: true });
    const ids = async (who: ReturnType<typeof session>, whose: "mine" | "queue" | "everyone") =>
      (await listAlerts(database.db, who, { view: "open", whose })).map((a) => a.id);
    expect(await ids(other, "mine")).not.toContain(alertId);
    expect(await ids(other, "queue")).not.toContain(alertId);
    expect(await ids(other, "everyone")).not.toContain(alertId);
    expect(await moveAlert(database.db, other, { alertId, move: "done" })).toMatchObject({ code: "NOT_FOUND" });
    const [mine] = (await listAlerts(database.db, agent, { view: "open", whose: "mine" })).filter(
      (a) => a.id === alertId,
    );
    expect(mine?.assigneeName).toBe("Ann Agent");

    // The digest goes to Ann, not to the queue's recipients.
    const before = (await listOutbox(mail().mail)).length;
    expect(await sendDigests(database.db, mail())).toEqual({ mails: 1, alerts: 1 });
    const outbox = await listOutbox(mail().mail);
    expect(outbox).toHaveLength(before + 1);
    expect(outbox.map((m) => m.to)).toContain("agent@agency.test");
    expect(outbox.filter((m) => m.text.includes(refresh.pull_id)).map((m) => m.to)).toEqual(["agent@agency.test"]);
  });

  it("takes the alert away from the agent a manager reassigns the pull from", async () => {
    const agent = session(staff.agent);
    const other = session(staff.otherAgent);
    const agentBefore = await countOpenAlerts(database.db, agent);
    const otherBefore = await countOpenAlerts(database.db, other);
    expect(
      await assignPulls(database.db, staff.manager, {
        pullIds: [refresh.pull_id],
        assigneeId: staff.otherAgent.id,
      }),
    ).toMatchObject({ ok: true });
    expect(await countOpenAlerts(database.db, agent)).toBe(agentBefore - 1);
    expect((await listAlerts(database.db, agent, { view: "open", whose: "mine" })).map((a) => a.id)).not.toContain(
      alertId,
    );
    expect(await moveAlert(database.db, agent, { alertId, move: "done" })).toMatchObject({ code: "NOT_FOUND" });
    expect(await countOpenAlerts(database.db, other)).toBe(otherBefore + 1);
    const rows = await listAlerts(database.db, other, { view: "open", whose: "mine" });
    expect(rows.find((a) => a.id === alertId)).toMatchObject({ assigneeName: "Otto Other" });
    expect(await moveAlert(database.db, other, { alertId, move: "done" })).toEqual({ ok: true });

    // Reopened and not yet mailed again, it is mailed to its new agent only.
    await moveAlert(database.db, other, { alertId, move: "reopen" });
    await database.db.update(alerts).set({ mailedAt: null }).where(eq(alerts.id, alertId));
    expect(await sendDigests(database.db, mail())).toEqual({ mails: 1, alerts: 1 });
    const [latest] = (await listOutbox(mail().mail)).filter((m) => m.text.includes(refresh.pull_id)); // newest first
    expect(latest?.to).toBe("other@agency.test");
  });
});
