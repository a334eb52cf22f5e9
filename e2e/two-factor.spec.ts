import { expect, test, type Browser, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { newDataDir, startApp, type AppInstance } from "./app-instance";
import { DEMO_PASSWORD, ROLES } from "./roles";

// The second factor end to end, on an app instance and database of its own: the demo users it
// sets up apps for, and the rule it turns on for everyone, would change every other spec's
// sign-ins on the shared server. Codes are computed here with otpauth, as a phone's app would.

const PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 70;
const APP_URL = `http://127.0.0.1:${PORT}`;

test.setTimeout(240_000);

let app: AppInstance | null = null;
test.beforeAll(async () => {
  app = await startApp(newDataDir(), { port: PORT });
});
test.afterAll(async () => {
  await app?.stop();
});

/** The code the app shows `stepsAhead` 30-second steps from now. */
const codeOf = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });

/** Six digits that are no code of the steps around now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((ahead) => codeOf(secret, ahead)));
  return ["100000", "271828", "314159", "577215"].find((code) => !near.has(code)) ?? "999999";
}

/** Email and password; the page then shows either the app or the second step. */
async function enterPassword(page: Page, email: string): Promise<void> {
  await page.goto(`${APP_URL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await enterPassword(page, email);
  await expect(page.getByRole("banner")).toBeVisible();
  return page;
}

/** Sets up an authenticator app on the security page; answers its secret. */
async function setUpApp(page: Page): Promise<string> {
  await page.goto(`${APP_URL}/account/security`);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("The 6-digit code your app shows").fill(codeOf(secret));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  return secret;
}

test("a user sets up an authenticator app; sign-in then asks for its code, refuses a wrong one, takes the right one", async ({
  browser,
}) => {
  const page = await signedIn(browser, ROLES.agent.email);
  const secret = await setUpApp(page);
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByTestId("second-factor-on")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  await enterPassword(page, ROLES.agent.email);
  const code = page.getByLabel("Authentication code");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await code.fill(wrongCode(secret));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("That code is not right");
  await expect(page.getByRole("banner")).toHaveCount(0);

  // The code of the next step: the current one was used up confirming the app.
  await code.fill(codeOf(secret, 1));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
});

test("an admin requires a second factor: a user without one lands on the security page, whatever they open", async ({
  browser,
}) => {
  const admin = await signedIn(browser, ROLES.admin.email);
  // An admin turns the rule on only with a factor of their own.
  await setUpApp(admin);
  await admin.goto(`${APP_URL}/admin/users`);
  const rule = admin.getByRole("form", { name: "Second factor rule" });
  await rule.getByRole("combobox").selectOption("on");
  await rule.getByRole("button", { name: "Save" }).click();
  await expect(rule.getByRole("status")).toContainText("everyone without a second factor sets one up");
  await admin.reload();
  await expect(admin.getByTestId("second-factor-rule-state")).toContainText("Required");

  const manager = await (await browser.newContext()).newPage();
  await enterPassword(manager, ROLES.manager.email);
  await expect(manager).toHaveURL(/\/account\/security$/);
  await expect(manager.getByTestId("enrol-first")).toBeVisible();
  for (const path of ["/pulls", "/reports", "/my"]) {
    await manager.goto(`${APP_URL}${path}`);
    await expect(manager).toHaveURL(/\/account\/security$/);
  }
  // The data behind the pages refuses too.
  expect((await manager.request.get(`${APP_URL}/api/pulls/csv`)).status()).toBe(404);

  // Once set up, the manager gets on with their work.
  await setUpApp(manager);
  await manager.goto(`${APP_URL}/pulls`);
  await expect(manager).toHaveURL(/\/pulls$/);
  await expect(manager.getByTestId("enrol-first")).toHaveCount(0);
});
