import { expect, test } from "@playwright/test";
import { ROLES } from "./roles";

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
    await expect(page.locator("form").getByRole("alert")).toHaveText("That email and password do not match an active account.");
    await page.goto("/pulls");
    await expect(page).toHaveURL(/\/login/);
  });

  test("API routes answer 401 without a session instead of redirecting", async ({ request }) => {
    const response = await request.get("/api/does-not-matter", { maxRedirects: 0 });
    expect(response.status()).toBe(401);
  });
});
