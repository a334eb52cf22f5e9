import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, monitorings, pulls, reconnectPages } from "@/db/schema";
import { processDueEvents } from "@/lib/ingest/process-events";
import { receiveWebhook } from "@/lib/ingest/receive-webhook";
import type { ServiceConfig } from "@/lib/service/client";
import { exchangeReconnectToken } from "@/lib/service/link-api";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { WRONG_CODE_MESSAGE } from "@/sandbox/flows/scenarios";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { createStaff } from "@/test/workflow-fixture";
import {
  hostedReconnectLink,
  openReconnectPage,
  getReconnectPage,
  reconnectStep,
  DEFAULT_BAD_CREDENTIALS,
  HOSTED_ONLY,
  revokeReconnectPage,
} from "./reconnect-page";
import { carrierLogin, matchCarrier } from "./reconnect-carrier";
import { answerReconnectPage } from "./reconnect-page-answers";
import { guardReconnectPage, RECONNECT_PAGE_LIMITS } from "./reconnect-page-guard";
import { reconnectPageKey, reconnectPageToken } from "./reconnect-page-token";

// The Coverdesk-hosted reconnect page end to end below the browser: the sandbox (over HTTP)
// stops a monitored account's refresh for its consumer, its webhooks come through our real
// ingestion, and the consumer's answers move the login on until it succeeds.

const TEAM = "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b";
const SECRET = reconnectPageKey({ sessionSecret: "reconnect-page-test-secret-0123456789", linkSecret: null });
let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let receiver: Server;
let staff: Awaited<ReturnType<typeof createStaff>>;

/** Our webhook endpoint in miniature: store, then process, one delivery at a time. */
function startIngestion(): Promise<string> {
  let queue = Promise.resolve();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      queue = queue.then(async () => {
        const answer = await receiveWebhook(database.db, body, { webhookSecret: null, signatureHeader: null });
        res.writeHead(answer.status).end(JSON.stringify(answer.body));
        await processDueEvents(database.db, (pullId) => fetchPullPayload(service, pullId), {
          workerId: "test",
          batchSize: 50,
        });
      });
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`)),
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  // Up to 30 s: a busy machine slows the sandbox and ingestion.
  for (let i = 0; i < 1_200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function control(path: string, body: unknown): Promise<{ pull_id: string }> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as { pull_id: string };
}

/** A monitored account whose refresh stopped where the consumer must act. */
async function accountNeedingReconnect(wall = "NOT_AUTHENTICATED"): Promise<string> {
  const linked = await control("links", { username: "user_good_discover", password: "pass_good" });
  const monitoring = await until(
    async () => (await database.db.select().from(monitorings).where(eq(monitorings.initialPullId, linked.pull_id)))[0],
    (m) => m !== undefined && (m.status !== null || m.monitoringId !== ""),
    "the monitoring",
  );
  const monitoringId = monitoring?.monitoringId ?? "";
  await until(
    async () => (await database.db.select().from(pulls).where(eq(pulls.pullId, linked.pull_id))).length,
    (n) => n === 1,
    "the pull",
  );
  await control(`monitorings/${monitoringId}/reconnect-needed`, { auth_status: wall });
  await until(
    async () =>
      (await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId)))[0]
        ?.reconnectToken,
    Boolean,
    "MONITORING_RECONNECT",
  );
  return monitoringId;
}

const settled = (pageId: string) =>
  until(
    () => getReconnectPage(database.db, pageId),
    (v) => v?.step.kind !== "waiting",
    "the next step",
  );

beforeAll(async () => {
  database = await createTestDatabase();
  staff = await createStaff(database.db);
  sandbox = await startSandbox({
    port: 0,
    clientId: "rc",
    clientSecret: "rc-secret",
    teamId: TEAM,
    webhookUrl: await startIngestion(),
    webhookSecret: null,
    seed: 9,
    pullCount: 4,
    speed: 0.002,
    deliverOnStart: false,
  });
  service = {
    baseUrl: sandbox.baseUrl,
    teamId: TEAM,
    clientId: "rc",
    clientSecret: "rc-secret",
    timeoutMs: 3_000,
    retryBaseMs: 1,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((r) => receiver?.close(r));
  await database?.close();
});

describe("the consumer's reconnect page", { timeout: 120_000 }, () => {
  it("takes user_mfa through credentials, a code method, a wrong code and the right one, and clears the request", async () => {
    const monitoringId = await accountNeedingReconnect();
    const opened = await openReconnectPage(database.db, staff.manager, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    expect(await openReconnectPage(database.db, staff.admin, monitoringId)).toMatchObject({
      ok: true,
      pageId: opened.pageId,
      created: false,
    });
    const pageId = opened.pageId;
    expect((await getReconnectPage(database.db, pageId))?.step).toEqual({ kind: "credentials", message: null });

    // The token we hold has expired: the page asks the service for a fresh one by itself.
    await database.db
      .update(monitorings)
      .set({ reconnectToken: "rct_expired" })
      .where(eq(monitorings.monitoringId, monitoringId));
    expect(await answerReconnectPage(database.db, service, pageId, { kind: "code", code: "123456" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("moved on"),
    });
    expect(
      await answerReconnectPage(database.db, service, pageId, {
        kind: "credentials",
        username: "user_mfa",
        password: "wrong",
      }),
    ).toEqual({ ok: true });
    expect(
      (await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId)))[0]
        ?.reconnectToken,
    ).not.toBe("rct_expired");
    expect((await getReconnectPage(database.db, pageId))?.step.kind).toBe("waiting");
    expect((await settled(pageId))?.step).toEqual({ kind: "credentials", message: DEFAULT_BAD_CREDENTIALS });

    expect(
      await answerReconnectPage(database.db, service, pageId, {
        kind: "credentials",
        username: "user_mfa",
        password: "pass_good",
      }),
    ).toEqual({ ok: true });
    const options = (await settled(pageId))?.step;
    expect(options).toMatchObject({
      kind: "options",
      options: [expect.objectContaining({ key: "sms-0" }), expect.objectContaining({ key: "email-0" })],
    });
    expect(await answerReconnectPage(database.db, service, pageId, { kind: "options", optionKey: "sms-0" })).toEqual({
      ok: true,
    });
    expect((await settled(pageId))?.step).toEqual({ kind: "code", message: null });

    expect(await answerReconnectPage(database.db, service, pageId, { kind: "code", code: "000000" })).toEqual({
      ok: true,
    });
    expect((await settled(pageId))?.step).toEqual({ kind: "code", message: WRONG_CODE_MESSAGE });
    expect(await answerReconnectPage(database.db, service, pageId, { kind: "code", code: "424242" })).toEqual({
      ok: true,
    });
    expect((await settled(pageId))?.step).toEqual({ kind: "done" });

    // The page shows "done" from the SUCCESS status; ingestion then closes the page and the request.
    await until(
      async () =>
        (await database.db.select().from(reconnectPages).where(eq(reconnectPages.id, pageId)))[0]?.completedAt,
      Boolean,
      "the page to close",
    );
    const [after] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    expect(after?.reconnectRequestedAt).toBeNull();
  });

  it("starts at the code method when the refresh stopped there, with the options it sent", async () => {
    const monitoringId = await accountNeedingReconnect("IDENTITY_VERIFICATION_OPTIONS");
    const opened = await openReconnectPage(database.db, staff.admin, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    // The options come with the AUTH_STATUS webhook, which may land just after the token's.
    const page = await until(
      () => getReconnectPage(database.db, opened.pageId),
      (v) => v?.step.kind === "options",
      "the code options",
    );
    expect(page?.step).toMatchObject({
      kind: "options",
      options: [expect.objectContaining({ key: "sms-0" }), expect.anything()],
    });
  });

  it("closes with plain words when the service says the token was already used", async () => {
    const monitoringId = await accountNeedingReconnect();
    const opened = await openReconnectPage(database.db, staff.admin, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    const [held] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    await exchangeReconnectToken(service, held?.reconnectToken ?? ""); // used elsewhere, e.g. the service's own page
    expect(
      await answerReconnectPage(database.db, service, opened.pageId, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      }),
    ).toEqual({ ok: false, message: "This account is already reconnected. There is nothing more to do." });
    expect((await getReconnectPage(database.db, opened.pageId))?.step).toEqual({
      kind: "closed",
      reason: "This account is already reconnected. There is nothing more to do.",
    });
  });

  it("stops working at once when staff withdraw it, for those who may see the account, audited", async () => {
    const monitoringId = await accountNeedingReconnect();
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    const pullId = row?.latestPullId ?? row?.initialPullId ?? "";
    await database.db.update(pulls).set({ assigneeId: staff.agent.id }).where(eq(pulls.pullId, pullId));
    const opened = await openReconnectPage(database.db, staff.agent, monitoringId);
    if (!opened.ok) throw new Error(opened.message);

    expect(await revokeReconnectPage(database.db, staff.otherAgent, monitoringId)).toMatchObject({ code: "NOT_FOUND" });
    expect(await revokeReconnectPage(database.db, staff.agent, monitoringId)).toEqual({ ok: true, revoked: 1 });
    const closed = {
      kind: "closed",
      reason: "Your agency withdrew this link. If you still need to reconnect, ask your agent for a new one.",
    };
    expect((await getReconnectPage(database.db, opened.pageId))?.step).toEqual(closed);
    expect(
      await answerReconnectPage(database.db, service, opened.pageId, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      }),
    ).toMatchObject({ ok: false });
    expect(await revokeReconnectPage(database.db, staff.agent, monitoringId)).toMatchObject({ code: "CONFLICT" });
    const audit = await database.db.select().from(auditEvents).where(eq(auditEvents.pullId, pullId));
    expect(audit.filter((a) => a.action === "CONSUMER_LINK_REVOKED").map((a) => a.details)).toEqual([
      { kind: "reconnect page", monitoringId },
    ]);
    // A new page can be made after, with a new link.
    const again = await openReconnectPage(database.db, staff.agent, monitoringId);
    expect(again).toMatchObject({ ok: true, created: true });
    expect(again.ok && again.pageId).not.toBe(opened.pageId);
  });

  it("sends the carrier's id found in the catalogue from the pull's carrier name, whatever its case", async () => {
    const monitoringId = await accountNeedingReconnect();
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    const pullId = row?.latestPullId ?? row?.initialPullId ?? "";
    expect((await database.db.select().from(pulls).where(eq(pulls.pullId, pullId)))[0]?.providerName).toBe(
      "progressive",
    );
    // Only the display name is known, in another case: it still names one carrier id.
    await database.db
      .update(pulls)
      .set({ providerName: null, providerFriendlyName: "state FARM" })
      .where(eq(pulls.pullId, pullId));
    const opened = await openReconnectPage(database.db, staff.admin, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    const sent: unknown[] = [];
    const recording: ServiceConfig = {
      ...service,
      fetch: async (url, init) => {
        if (String(url).endsWith("/connect")) sent.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    };
    expect(
      await answerReconnectPage(database.db, recording, opened.pageId, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      }),
    ).toEqual({ ok: true });
    expect(sent).toEqual([{ insurerName: "statefarm", insurerUsername: "user_good", insurerPassword: "pass_good" }]);
  });

  it("follows the carrier's own login: its third field checked by its rule before anything is sent, no password where it has none", async () => {
    const reconnectWith = async (carrierId: string) => {
      const monitoringId = await accountNeedingReconnect();
      const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
      await database.db
        .update(pulls)
        .set({ providerName: carrierId, providerFriendlyName: null })
        .where(eq(pulls.pullId, row?.latestPullId ?? row?.initialPullId ?? ""));
      const opened = await openReconnectPage(database.db, staff.admin, monitoringId);
      if (!opened.ok) throw new Error(opened.message);
      return opened.pageId;
    };
    const sent: unknown[] = [];
    const recording: ServiceConfig = {
      ...service,
      fetch: async (url, init) => {
        if (String(url).endsWith("/connect")) sent.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    };

    // USAA asks for a 4-digit PIN besides the Online ID and password.
    const usaa = await reconnectWith("usaa");
    expect(carrierLogin(await matchCarrier(service, ["usaa"]))).toMatchObject({
      usernameLabel: "Online ID",
      password: true,
      thirdField: { label: "4-digit PIN" },
    });
    expect(
      await answerReconnectPage(database.db, recording, usaa, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      }),
    ).toEqual({ ok: false, message: "Enter your 4-digit PIN." });
    expect(
      await answerReconnectPage(database.db, recording, usaa, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
        thirdField: "12a4",
      }),
    ).toEqual({ ok: false, message: "Enter the 4-digit PIN of your USAA account." });
    expect(sent, "nothing reached the service").toEqual([]);
    expect(
      await answerReconnectPage(database.db, recording, usaa, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
        thirdField: "1234",
      }),
    ).toEqual({ ok: true });
    expect(sent).toEqual([
      { insurerName: "usaa", insurerUsername: "user_good", insurerPassword: "pass_good", insurerThirdField: "1234" },
    ]);

    // A carrier that signs in without a password is never sent one, nor asked for it.
    const lemonade = await reconnectWith("lemonade");
    expect(carrierLogin(await matchCarrier(service, ["lemonade"])).password).toBe(false);
    expect(
      await answerReconnectPage(database.db, recording, lemonade, {
        kind: "credentials",
        username: "user_good",
        password: "typed anyway",
      }),
    ).toEqual({ ok: true });
    expect(sent.at(-1)).toEqual({ insurerName: "lemonade", insurerUsername: "user_good" });
  });

  it("never links the reset page of a catalogue entry that is not a web address", () => {
    const entry = { carrier_id: "x", name: "X", resetPasswordUrl: "javascript:alert(1)" } as Parameters<
      typeof carrierLogin
    >[0];
    expect(carrierLogin(entry).resetPasswordUrl).toBeNull();
    expect(
      carrierLogin({ ...entry, resetPasswordUrl: "https://x.example/reset" } as typeof entry).resetPasswordUrl,
    ).toBe("https://x.example/reset");
    expect(carrierLogin(null)).toEqual({
      usernameLabel: "Username",
      password: true,
      thirdField: null,
      resetPasswordUrl: null,
    });
  });

  it("says so in plain words, and sends nothing, when no carrier of the catalogue matches the pull's", async () => {
    const monitoringId = await accountNeedingReconnect();
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    await database.db
      .update(pulls)
      .set({ providerName: "acme_mutual", providerFriendlyName: "Acme Mutual" })
      .where(eq(pulls.pullId, row?.latestPullId ?? row?.initialPullId ?? ""));
    const opened = await openReconnectPage(database.db, staff.admin, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    expect(
      await answerReconnectPage(database.db, service, opened.pageId, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      }),
    ).toEqual({ ok: false, message: expect.stringContaining("could not tell which insurance company") });
    const [page] = await database.db.select().from(reconnectPages).where(eq(reconnectPages.id, opened.pageId));
    expect(page).toMatchObject({ sessionPullId: null, answeredAt: null, answeredAtSequence: null });
    expect(
      (await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId)))[0]
        ?.reconnectToken,
    ).toBe(row?.reconnectToken);
    expect((await getReconnectPage(database.db, opened.pageId))?.step).toEqual({ kind: "credentials", message: null });
  });

  it("offers the service's own reconnect page when the agency has no whitelabel access", async () => {
    const monitoringId = await accountNeedingReconnect();
    const opened = await openReconnectPage(database.db, staff.manager, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    const [held] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    expect(held?.reconnectUrl).toMatch(/^https?:\/\//);
    await control("plan", { whitelabel: false });
    try {
      expect(
        await answerReconnectPage(database.db, service, opened.pageId, {
          kind: "credentials",
          username: "user_good",
          password: "pass_good",
        }),
      ).toEqual({ ok: false, message: expect.stringContaining("secure page of the service") });
    } finally {
      await control("plan", { whitelabel: true });
    }
    // From now on the page shows the service's link, not the login form; nothing was sent.
    expect((await getReconnectPage(database.db, opened.pageId))?.step).toEqual({
      kind: "hosted",
      url: held?.reconnectUrl,
    });
    const [page] = await database.db.select().from(reconnectPages).where(eq(reconnectPages.id, opened.pageId));
    expect(page).toMatchObject({ sessionPullId: null, answeredAt: null, closedReason: HOSTED_ONLY });
  });

  it("asks the service for its reconnect link when none is held, and links only a web address", async () => {
    const monitoringId = await accountNeedingReconnect();
    const opened = await openReconnectPage(database.db, staff.manager, monitoringId);
    if (!opened.ok) throw new Error(opened.message);
    await database.db.update(monitorings).set({ reconnectUrl: null }).where(eq(monitorings.monitoringId, monitoringId));
    await control("plan", { whitelabel: false });
    try {
      await answerReconnectPage(database.db, service, opened.pageId, {
        kind: "credentials",
        username: "user_good",
        password: "pass_good",
      });
    } finally {
      await control("plan", { whitelabel: true });
    }
    const step = (await getReconnectPage(database.db, opened.pageId))?.step;
    expect(step).toMatchObject({ kind: "hosted", url: expect.stringMatching(/^https?:\/\/.*reconnect/i) });

    // A link that is no web address (a forged webhook, say) is never offered.
    await database.db
      .update(monitorings)
      .set({ reconnectUrl: "javascript:alert(1)" })
      .where(eq(monitorings.monitoringId, monitoringId));
    expect((await getReconnectPage(database.db, opened.pageId))?.step).toEqual({ kind: "hosted", url: null });
    expect(hostedReconnectLink("not a url")).toBeNull();
    expect(hostedReconnectLink("https://service.example/r?t=1")).toBe("https://service.example/r?t=1");
  });

  it("closes a hosted-only page once the account is reconnected, and lets it expire", () => {
    const now = new Date("2027-01-10T12:00:00Z");
    const page = {
      closedReason: HOSTED_ONLY,
      completedAt: null,
      expiresAt: new Date("2027-01-12T00:00:00Z"),
    } as Parameters<typeof reconnectStep>[0]["page"];
    const facts = {
      page,
      now,
      requestedStatus: null,
      requestPullId: null,
      auth: null,
      reconnectUrl: "https://s.example/r",
    };
    expect(reconnectStep({ ...facts, requestOpen: true })).toEqual({ kind: "hosted", url: "https://s.example/r" });
    expect(reconnectStep({ ...facts, requestOpen: false })).toMatchObject({ kind: "closed" });
    expect(
      reconnectStep({ ...facts, requestOpen: true, page: { ...page, expiresAt: new Date("2027-01-01T00:00:00Z") } }),
    ).toEqual({ kind: "expired" });
  });

  it("is made only for requests the member of staff may see", async () => {
    const monitoringId = await accountNeedingReconnect();
    const [row] = await database.db.select().from(monitorings).where(eq(monitorings.monitoringId, monitoringId));
    // The request belongs to the account's latest pull, as on the worklist.
    await database.db
      .update(pulls)
      .set({ assigneeId: staff.agent.id })
      .where(eq(pulls.pullId, row?.latestPullId ?? row?.initialPullId ?? ""));
    expect(await openReconnectPage(database.db, staff.otherAgent, monitoringId)).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await openReconnectPage(database.db, staff.agent, monitoringId)).toMatchObject({ ok: true });
    expect(await openReconnectPage(database.db, staff.admin, "mon_missing")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
  });
});

describe("the page's guard", () => {
  it("refuses tokens it did not sign, then limits the address that keeps trying", async () => {
    const tries = [];
    for (let i = 0; i < RECONNECT_PAGE_LIMITS.badTokensPerAddress.limit + 1; i++)
      tries.push(await guardReconnectPage(database.db, SECRET, `guess-${i}`, "198.51.100.1", "view"));
    expect(tries.slice(0, -1).every((t) => !t.ok && t.status === 404)).toBe(true);
    expect(tries.at(-1)).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringMatching(/^Too many attempts\. Wait \d+ minutes? and try again\.$/),
    });
    // Another address is not held back by it.
    expect(await guardReconnectPage(database.db, SECRET, "guess", "198.51.100.2", "view")).toMatchObject({
      status: 404,
    });
  });

  it("allows a consumer a handful of answers per page, then asks them to wait", async () => {
    const token = reconnectPageToken(SECRET, "AAAAAAAAAAAAAAAAAAAAAA");
    const answers = [];
    for (let i = 0; i < RECONNECT_PAGE_LIMITS.answersPerPage.limit + 1; i++)
      answers.push(await guardReconnectPage(database.db, SECRET, token, `203.0.113.${i}`, "answer"));
    expect(answers.slice(0, -1).every((a) => a.ok)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ ok: false, status: 429 });
  });
});
