import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// The admin makes an API key on its page (shown once), another system uses it to list pulls
// and move one to WON, and the admin revokes it: its next call is refused. Other roles get 404.

test.describe("API keys, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("makes a key, uses it through /api/v1, and revokes it", async ({ page, playwright, baseURL }) => {
    const name = `E2E ${randomUUID().slice(0, 8)}`;
    await page.goto("/admin/api-keys");
    await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
    const form = page.getByRole("form", { name: "Make an API key" });
    await form.getByLabel("Name (the system that will use it)").fill(name);
    await form.getByRole("checkbox", { name: /pulls:write/ }).check();
    await form.getByRole("button", { name: "Make key" }).click();
    const shown = page.getByTestId("new-api-key");
    await expect(shown).toHaveText(/^cdk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const key = (await shown.textContent()) ?? "";

    // A client of its own: no session cookie, only the key.
    const api = await playwright.request.newContext({
      baseURL,
      storageState: { cookies: [], origins: [] },
      extraHTTPHeaders: { authorization: `Bearer ${key}` },
    });
    const list = await api.get("/api/v1/pulls?limit=100");
    expect(list.status()).toBe(200);
    const { data } = (await list.json()) as { data: Array<{ pull_id: string; stage: string; status: string }> };
    const working = data.find((pull) => pull.stage === "WORKING" && pull.status === "SUCCESS");
    expect(working).toBeDefined();
    const won = await api.patch(`/api/v1/pulls/${working?.pull_id}`, {
      data: { stage: "WON", premium_cents: 123400 },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(won.status()).toBe(200);
    expect(((await won.json()) as { agency: { stage: string } }).agency.stage).toBe("WON");

    // The page shows when the key was last used; revoking it refuses its next call.
    await page.reload();
    const row = page.getByTestId("api-key-row").filter({ hasText: name });
    await expect(row).not.toContainText("Never");
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect(row).toContainText("Revoked");
    expect((await api.get("/api/v1/pulls")).status()).toBe(401);
    await api.dispose();
  });

  test("serves the OpenAPI document without a key", async ({ playwright, baseURL }) => {
    const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const answer = await anonymous.get("/api/v1/openapi.json");
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { openapi: string }).openapi).toBe("3.1.0");
    await anonymous.dispose();
  });
});

test.describe("API keys, as manager", () => {
  test.use({ storageState: storageStateOf("manager") });

  test("is not there", async ({ page }) => {
    const answer = await page.goto("/admin/api-keys");
    expect(answer?.status()).toBe(404);
  });
});
