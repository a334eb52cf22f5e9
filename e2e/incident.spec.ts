import { expect, test } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// Who saw what, as an admin finds out: a pull the admin opened is in the incident report for
// their own user over today, counted under a state; bad filters are refused in words; the CSV
// downloads; an agent finds no such page.

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

test.describe("the incident report, as an admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("lists a pull the admin just opened, by state, and downloads it as CSV", async ({ page }) => {
    const [path] = await listedPullPaths(page, "");
    if (!path) throw new Error("no pull listed");
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    await page.goto("/admin/incident");
    await expect(page.getByRole("heading", { name: "Incident", level: 1 })).toBeVisible();
    // The window alone: whoever else the other specs have opened pulls as, this one is listed.
    await page.getByLabel("From (UTC)").fill(minute(Date.now() - 86_400_000));
    await page.getByLabel("To (UTC)").fill(minute(Date.now() + 3_600_000));
    // The view is written just after the page is served: look until it is there.
    await expect(async () => {
      await page.getByRole("button", { name: "Show the report" }).click();
      await expect(page.locator(`[data-testid="incident-consumer-row"] a[href="${path}"]`).first()).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 20_000 });
    expect(await page.getByTestId("incident-state-row").count()).toBeGreaterThan(0);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    expect((await download).suggestedFilename()).toBe("coverdesk-incident-scope.csv");
  });

  test("refuses an address that is not one, in words", async ({ page }) => {
    await page.goto(`/admin/incident?ip=nope&from=${minute(Date.now() - 86_400_000)}&to=${minute(Date.now())}`);
    // The page's own alert (Next's route announcer is an alert too).
    await expect(page.getByRole("alert").filter({ hasText: "IPv4 or IPv6" })).toBeVisible();
  });

  test("shows the redisclosure log as a tab", async ({ page }) => {
    await page.goto("/admin/incident");
    await page.getByRole("link", { name: "Redisclosure log" }).click();
    await expect(page).toHaveURL(/view=log/);
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
  });
});

test.describe("the incident report, as an agent", () => {
  test.use({ storageState: storageStateOf("agent") });

  test("is not there", async ({ page }) => {
    const response = await page.goto("/admin/incident");
    expect(response?.status()).toBe(404);
    expect((await page.request.get("/api/admin/redisclosures/csv")).status()).toBe(404);
  });
});
