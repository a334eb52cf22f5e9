import { expect, test } from "@playwright/test";
import { signPayload } from "../lib/service/signature";
import { storageStateOf } from "./roles";

// The admin's Events page: the inbox at a glance, a failed event retried, a sync run watched.

const SECRET = "coverdesk-e2e-webhook-secret"; // the one playwright.config.ts gives the app
const UNKNOWN_PULL = "0e0e0e0e-0000-4000-8000-00000000dead";

test.describe("events, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("shows delivered events, parks an unknown pull as failed, and retries it", async ({ page, request }) => {
    const body = JSON.stringify({ event_type: "COMPLETE", pull_id: UNKNOWN_PULL, status: "SUCCESS", data: {} });
    const response = await request.post("/api/webhooks/service", {
      data: Buffer.from(body),
      headers: {
        "content-type": "application/json",
        "canopy-signature": signPayload(SECRET, body, Math.floor(Date.now() / 1000)),
      },
    });
    expect(response.status()).toBe(202);

    await page.goto("/events");
    await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
    await expect(async () => {
      await page.goto(`/events?status=FAILED&pull=${UNKNOWN_PULL}`);
      await expect(page.getByTestId("inbox-row")).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    const row = page.getByTestId("inbox-row");
    await expect(row).toContainText("does not know pull");
    await expect(row).toContainText("Failed");
    expect(Number(await page.getByTestId("count-DONE").textContent())).toBeGreaterThan(0);

    await row.getByRole("button", { name: "Retry" }).click();
    // Back in the queue, and parked again since the pull is still unknown: one attempt this time.
    await expect(async () => {
      await page.goto(`/events?pull=${UNKNOWN_PULL}`);
      await expect(page.getByTestId("inbox-row")).toContainText("Failed", { timeout: 1_000 });
      await expect(page.getByTestId("inbox-row").getByRole("cell").nth(3)).toHaveText("1", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  });

  test("runs a sync on request and shows how it went", async ({ page }) => {
    await page.goto("/events");
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect(page.getByTestId("sync-status")).toContainText(/Last sync .*pulls checked/, { timeout: 30_000 });
  });

  test("says so when the pull filter is not a pull id", async ({ page }) => {
    await page.goto("/events?pull=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    await expect(page.locator("main").getByRole("alert")).toContainText("<script>alert(1)</script>");
    await expect(page.locator("main").getByRole("alert")).toContainText("is not a pull id");
  });
});

test.describe("events, as agent", () => {
  test.use({ storageState: storageStateOf("agent") });

  test("are not there: no link, a 404 page and a 404 status API", async ({ page, request }) => {
    await page.goto("/pulls");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" })).toHaveCount(0);
    const events = await page.goto("/events");
    expect(events?.status()).toBe(404);
    const api = await request.get("/api/admin/sync");
    expect(api.status()).toBe(404);
  });
});
