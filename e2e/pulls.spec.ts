import { expect, test } from "@playwright/test";
import { ROLES, storageStateOf, type RoleName } from "./roles";

// The sandbox seeds 36 pulls and delivers COMPLETE webhooks for the successful top-level ones;
// the app fetches each pull from the sandbox and stores it.
const AT_LEAST = 20;

for (const role of Object.keys(ROLES) as RoleName[]) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageStateOf(role) });

    test("sees the pulls that arrived by webhook and opens one", async ({ page }) => {
      await expect(async () => {
        await page.goto("/pulls");
        expect(await page.getByTestId("pull-row").count()).toBeGreaterThanOrEqual(AT_LEAST);
      }).toPass({ timeout: 60_000, intervals: [1_000] });

      const first = page.getByTestId("pull-row").first();
      const name = (await first.getByRole("link").textContent())?.trim() ?? "";
      expect(name.length).toBeGreaterThan(0);
      await first.getByRole("link").click();
      await expect(page).toHaveURL(/\/pulls\/[0-9a-f-]{36}$/);
      // The list shows first and last name; the detail adds any middle name between them.
      const words = name.split(" ");
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toContainText(words[0] ?? "");
      await expect(heading).toContainText(words.at(-1) ?? "");
      await expect(page.getByRole("heading", { name: "Policies" })).toBeVisible();
    });
  });
}

test.describe("pull pages", () => {
  test.use({ storageState: storageStateOf("agent") });

  test("an unknown or malformed pull id is a 404, not a crash", async ({ page }) => {
    const unknown = await page.goto("/pulls/00000000-0000-4000-8000-000000000000");
    expect(unknown?.status()).toBe(404);
    const malformed = await page.goto("/pulls/not-a-uuid");
    expect(malformed?.status()).toBe(404);
  });
});
