import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, ROLES } from "./roles";

test.describe("signing in", () => {
  test("a visitor without a session is sent to the login page", async ({ page }) => {
    await page.goto("/pulls");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fpulls/);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("a wrong password shows an error and no session", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(ROLES.admin.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText(
      "That email and password do not match an active account.",
    );
    await page.goto("/pulls");
    await expect(page).toHaveURL(/\/login/);
  });

  test("API routes answer 401 without a session instead of redirecting", async ({ request }) => {
    const response = await request.get("/api/does-not-matter", { maxRedirects: 0 });
    expect(response.status()).toBe(401);
  });

  // "/%09/evil.example" reads as "/\t/evil.example", which browsers take for https://evil.example/.
  test("a callbackUrl that leaves the app is not followed after sign-in", async ({ page, baseURL }) => {
    const app = new URL(baseURL ?? "").origin;
    for (const hostile of [
      "/%0A/evil.example",
      "/%0D/evil.example",
      "%2F%2Fevil.example",
      "/%5Cevil.example",
      "javascript%3Aalert(1)",
    ]) {
      const response = await page.goto(`/login?callbackUrl=${hostile}`);
      expect(response?.status(), hostile).toBe(200);
    }
    await page.goto("/login?callbackUrl=/%09/evil.example");
    await page.getByLabel("Email").fill(ROLES.agent.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("banner")).toBeVisible();
    expect(new URL(page.url()).origin).toBe(app);
    // Signed in already: the page's own redirect stays on the app too.
    const again = await page.request.get("/login?callbackUrl=/%09/evil.example", { maxRedirects: 0 });
    expect(again.status()).toBe(307);
    expect(new URL(again.headers().location ?? "", app).origin).toBe(app);
  });

  test("signing out ends the session on the server: a copy of the cookie no longer works", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(ROLES.manager.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("banner")).toBeVisible();
    const copied = await context.cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
    await context.close();

    // Someone who kept a copy of the cookie (still validly signed) gets the login page.
    const thief = await browser.newContext();
    await thief.addCookies(copied);
    const stolen = await thief.newPage();
    await stolen.goto("/pulls");
    await expect(stolen).toHaveURL(/\/login/);
    await expect(stolen.getByRole("button", { name: "Sign in" })).toBeVisible();
    await thief.close();
  });
});
