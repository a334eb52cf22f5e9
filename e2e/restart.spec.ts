import { createHmac } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { E2E_WEBHOOK_SECRET, newDataDir, SECOND_APP_URL, startApp, type AppInstance } from "./app-instance";
import { DEMO_PASSWORD, ROLES } from "./roles";
import { SANDBOX_CONTROL, SERVICE_AUTH, TEAM_BASE, TEAM_ID } from "./sandbox-urls";

// Monitoring turned off stays off when the app restarts: the state shown after a restart is
// the service's, and nothing at start-up (re-projection, reconciliation) turns it back on.

test.setTimeout(180_000);

let app: AppInstance | null = null;
test.afterEach(async () => {
  await app?.stop();
  app = null;
});

/** Tells the instance about a pull the way the service does: a signed COMPLETE webhook. */
async function announce(pullId: string): Promise<void> {
  const body = JSON.stringify({
    event_type: "COMPLETE",
    pull_id: pullId,
    team_id: TEAM_ID,
    status: "SUCCESS",
    data: {},
  });
  const t = Math.floor(Date.now() / 1000);
  const s = createHmac("sha256", E2E_WEBHOOK_SECRET).update(`${t}.${body}`).digest("hex");
  const response = await fetch(`${SECOND_APP_URL}/api/webhooks/service`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "canopy-signature": `t=${t},s=${s}` },
  });
  expect(response.status).toBeLessThan(300);
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${SECOND_APP_URL}/login`);
  await page.getByLabel("Email").fill(ROLES.manager.email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/pulls/);
}

test("a stopped monitoring stays stopped after the app restarts", async ({ browser }) => {
  const linked = (await (
    await fetch(`${SANDBOX_CONTROL}/links`, {
      method: "POST",
      body: JSON.stringify({ username: "user_good", password: "pass_good" }),
      headers: { "content-type": "application/json" },
    })
  ).json()) as { pull_id: string };
  await expect(async () => {
    const served = (await (
      await fetch(`${TEAM_BASE}/pulls/${linked.pull_id}`, { headers: { authorization: SERVICE_AUTH } })
    ).json()) as { pull?: { status?: string } };
    expect(served.pull?.status).toBe("SUCCESS");
  }).toPass({ timeout: 30_000 });

  const dataDir = newDataDir();
  app = await startApp(dataDir);
  await announce(linked.pull_id);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page);
  await expect(async () => {
    expect((await page.goto(`${SECOND_APP_URL}/pulls/${linked.pull_id}`))?.status()).toBe(200);
  }).toPass({ timeout: 30_000, intervals: [500] });

  const panel = page.getByTestId("monitoring-panel");
  await panel.getByLabel("Every").fill("1");
  await panel.getByLabel("Unit").selectOption("M");
  await panel.getByRole("button", { name: "Turn monitoring on" }).click();
  await expect(page.getByTestId("monitoring-status")).toContainText("Active, every month");
  await panel.getByRole("button", { name: "Turn monitoring off" }).click();
  await expect(page.getByTestId("monitoring-status")).toHaveText("Stopped, every month");

  await app.stop();
  app = await startApp(dataDir);
  await page.goto(`${SECOND_APP_URL}/pulls/${linked.pull_id}`); // the session cookie survives the restart
  await expect(page.getByTestId("monitoring-status")).toHaveText("Stopped, every month");
  await expect(panel.getByRole("button", { name: "Turn monitoring on" })).toBeVisible();
  const atService = (await (
    await fetch(`${TEAM_BASE}/monitorings?pull_id=${linked.pull_id}`, { headers: { authorization: SERVICE_AUTH } })
  ).json()) as { monitorings: Array<{ status: string }> };
  expect(atService.monitorings.map((m) => m.status)).toEqual(["STOPPED"]);
  await context.close();
});
