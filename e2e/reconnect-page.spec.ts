import { expect, test, type Page } from "@playwright/test";
import { linkMonitoredAccount } from "./monitored-account";
import { storageStateOf } from "./roles";
import { SANDBOX_CONTROL } from "./sandbox-urls";

// The reconnect page Coverdesk hosts: staff make it from the worklist, and the consumer, with
// no login, goes through credentials, a code method, a wrong code and the right one.

test.use({ storageState: storageStateOf("manager") });

const WRONG_CODE = "The code you entered is not correct. Check the latest code we sent and try again.";

/** A monitored account (user_good_discover) whose refresh now waits for its consumer. */
async function accountNeedingReconnect(page: Page): Promise<string> {
  const { monitoringId } = await linkMonitoredAccount(page);
  const response = await fetch(`${SANDBOX_CONTROL}/monitorings/${monitoringId}/reconnect-needed`, {
    method: "POST",
    body: JSON.stringify({ auth_status: "NOT_AUTHENTICATED" }),
    headers: { "content-type": "application/json" },
  });
  expect(response.ok).toBe(true);
  return monitoringId;
}

test("user_mfa reconnects through the Coverdesk page, after a wrong code", async ({ page, browser }) => {
  const monitoringId = await accountNeedingReconnect(page);
  const item = page.locator(`[data-monitoring-id="${monitoringId}"]`);
  await expect(async () => {
    await page.goto("/reconnect");
    await expect(item).toContainText("Their login changed", { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await item.getByRole("button", { name: "Make a Coverdesk page" }).click();
  const address = item.getByTestId("coverdesk-page-url");
  await expect(address).toContainText("/connect/");
  const url = (await address.textContent()) ?? "";

  // The consumer: no session, a phone-sized screen.
  const consumer = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width: 375, height: 740 },
  });
  const tab = await consumer.newPage();
  await tab.goto(url);
  await expect(tab.getByRole("heading", { level: 1 })).toContainText("Reconnect your");
  await expect(tab.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");

  await tab.getByLabel("Username").fill("user_mfa");
  await tab.getByLabel("Password").fill("pass_good");
  await tab.getByRole("button", { name: "Sign in" }).click();
  await expect(tab.getByText("Where should it send a code?")).toBeVisible({ timeout: 30_000 });
  await tab.getByRole("radio", { name: /Text a code/ }).check();
  await tab.getByRole("button", { name: "Send me a code" }).click();

  const code = tab.getByLabel(/Enter the code/);
  await expect(code).toBeVisible({ timeout: 30_000 });
  await code.fill("000000");
  await tab.getByRole("button", { name: "Confirm" }).click();
  await expect(tab.getByTestId("reconnect-message")).toHaveText(WRONG_CODE, { timeout: 30_000 });
  await tab.getByLabel(/Enter the code/).fill("314159");
  await tab.getByRole("button", { name: "Confirm" }).click();
  await expect(tab.getByTestId("reconnect-done")).toContainText("You are reconnected.", { timeout: 30_000 });
  await consumer.close();

  // Staff see the account leave the worklist once its login succeeded.
  await expect(async () => {
    await page.goto("/reconnect");
    await expect(item).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [1_000] });
});

test("a reconnect address that is not ours says so, without a login", async ({ browser }) => {
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const tab = await stranger.newPage();
  const response = await tab.goto("/connect/AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
  expect(response?.status()).toBe(404);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  expect(tab.url()).not.toContain("/login");
  const status = await tab.request.get("/api/connect/not-a-token/status");
  expect(status.status()).toBe(404);
  await stranger.close();
});
