import { expect, test, type Browser, type Page } from "@playwright/test";
import { startSandbox, type Sandbox } from "../sandbox/server";
import { E2E_WEBHOOK_SECRET, newDataDir, startApp, type AppInstance } from "./app-instance";
import { DEMO_PASSWORD, ROLES } from "./roles";
import { TEAM_ID } from "./sandbox-urls";

// The demo agency on a first run: a fresh database, the history built in the background (the
// other specs' server runs without it, for speed; this one opts in, with a smaller book), and
// what a newcomer is promised: a manager's Reports show won premium, an agent's My pulls a
// pipeline.

const PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 60;
const APP_URL = `http://127.0.0.1:${PORT}`;
const CLIENT = { id: "coverdesk-demo-e2e-client", secret: "coverdesk-demo-e2e-secret" };

test.setTimeout(420_000);

let sandbox: Sandbox | null = null;
let app: AppInstance | null = null;
test.afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
});

async function signIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${APP_URL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

test("on a first run the demo agency has a history: won premium in the reports, a pipeline on My pulls, households on pull pages", async ({
  browser,
}) => {
  sandbox = await startSandbox({
    port: 0,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    teamId: TEAM_ID,
    webhookUrl: `${APP_URL}/api/webhooks/service`,
    webhookSecret: E2E_WEBHOOK_SECRET,
    seed: 42,
    pullCount: 12,
    speed: 0.01,
    deliverOnStart: true,
  });
  app = await startApp(newDataDir(), {
    port: PORT,
    env: {
      SERVICE_BASE_URL: sandbox.baseUrl,
      SERVICE_CLIENT_ID: CLIENT.id,
      SERVICE_CLIENT_SECRET: CLIENT.secret,
      COVERDESK_DEMO_HISTORY: "true",
      COVERDESK_DEMO_ACCOUNTS: "60",
    },
  });

  const manager = await signIn(browser, ROLES.manager.email);
  // While the history is written the pages work and say so; once it is done the banner goes.
  await expect(async () => {
    await manager.goto(`${APP_URL}/reports`);
    await expect(manager.getByTestId("demo-history-banner")).toHaveCount(0);
    await expect(manager.getByTestId("won-total")).not.toHaveText("$0.00");
  }).toPass({ timeout: 360_000, intervals: [2_000, 5_000] });
  const wonByPeriod = manager.getByRole("table", { name: /Won premium by month/ });
  await expect(wonByPeriod.getByRole("row")).not.toHaveCount(1);

  const agent = await signIn(browser, ROLES.agent.email);
  await agent.goto(`${APP_URL}/my`);
  await expect(agent.getByTestId("my-WORKING")).not.toHaveText("0");
  await expect(agent.getByTestId("my-WON")).not.toHaveText("0");
  await expect(agent.getByTestId("my-LOST")).not.toHaveText("0");

  // A pull opens on the household: what it pays a year and its policies a line each, with the
  // identifiers folded away until asked for.
  // The biggest premium first: a client that came back with its policy cancelled has none left to show.
  await agent.goto(`${APP_URL}/pulls?stage=WORKING&status=SUCCESS&sort=premium`);
  await agent.getByTestId("pull-row").first().getByRole("link").first().click();
  const household = agent.getByTestId("pull-header");
  await expect(household.getByTestId("household-premium")).toHaveText(/^\$[\d,]+\.\d\d/);
  await expect(household.getByTestId("household-policy").first()).toBeVisible();
  await expect(household.getByText("Pull ID")).toBeHidden();
  await household.getByText("Technical details").click();
  await expect(household.getByText("Pull ID")).toBeVisible();

  // The monitored accounts' refreshes raised alerts in words (a renewal up past the threshold, a
  // cancellation…). The admin mails the digests now: without SMTP they land in the listed outbox.
  const admin = await signIn(browser, ROLES.admin.email);
  await admin.goto(`${APP_URL}/admin/rules`);
  await expect(admin.getByTestId("mail-route")).toContainText("No mail server is set");
  await admin.getByRole("button", { name: "Send now" }).click();
  await expect(admin.getByRole("status")).toContainText(/^Sent \d+ digests? \(\d+ alerts?\)\.$/);
  await admin.reload();
  await expect(admin.getByTestId("outbox").getByRole("listitem").first()).toContainText(/Coverdesk: \d+ alerts? for/);
  // Refreshes are timed to renewals: the forecast counts them against the fixed intervals, and a
  // monitored account's page says when its next refresh is and why. A new lead time moves it.
  await expect(admin.getByTestId("forecast-summary")).toContainText(
    /\d+ monitored accounts, \d+ with verified X-dates/,
  );
  await expect(admin.getByTestId("forecast-month")).toHaveCount(12);
  await admin.getByLabel(/days before its X-date/).fill("60");
  await admin.getByRole("button", { name: "Save the rules" }).click();
  await expect(admin.getByRole("status").first()).toContainText("Saved.");
  await admin.goto(`${APP_URL}/pulls?monitored=yes`);
  await admin.getByTestId("pull-row").first().locator('a[href^="/pulls/"]').first().click();
  await expect(admin).toHaveURL(/\/pulls\/[0-9a-f-]{36}$/);
  await expect(async () => {
    await admin.reload();
    await expect(admin.getByTestId("next-refresh")).toContainText(
      /60 days before the .+ X-date|less than 60 days away|On the service's schedule/,
      {
        timeout: 1_000,
      },
    );
  }).toPass({ timeout: 30_000, intervals: [1_000] });
  // The agency's work set off outgoing webhooks, signed, to the sandbox's stand-in for a Zapier hook.
  await admin.goto(`${APP_URL}/admin/webhooks`);
  const endpoint = admin.getByTestId("webhook-endpoint").filter({ hasText: "/_sandbox/receiver" });
  await expect(async () => {
    await admin.reload();
    await expect(endpoint.getByTestId("webhook-delivery-row").filter({ hasText: "DELIVERED" }).first()).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000, intervals: [2_000] });
  // The rules and the digest are the admin's: an agent's request for the page finds nothing.
  expect((await agent.goto(`${APP_URL}/admin/rules`))?.status()).toBe(404);
  // The manager reads them in the inbox, and marks one done.
  await manager.goto(`${APP_URL}/alerts?whose=everyone`);
  const alert = manager.getByTestId("alert").first();
  const headline = (await alert.getByTestId("alert-headline").textContent()) ?? "";
  expect(headline).toMatch(/was cancelled|up \d+%|lapsed|lowered|removed|declined|no longer on the account/);
  await alert.getByRole("button", { name: "Done" }).click();
  await expect(manager.getByTestId("alert-headline").filter({ hasText: headline })).toHaveCount(0);
  await manager.goto(`${APP_URL}/alerts?view=done&whose=everyone`);
  await expect(manager.getByTestId("alert-headline").filter({ hasText: headline })).toHaveCount(1);
});
