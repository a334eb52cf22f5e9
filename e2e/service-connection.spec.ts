import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// The admin's Service connection page against the sandbox: the service's health, the team's
// links, and Coverdesk's own webhook address registered, paused and resumed. Other roles get 404.

test.describe("service connection, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("shows health and links, registers this address once, and pauses and resumes it", async ({ page }) => {
    await page.goto("/admin/service");
    await expect(page.getByRole("heading", { name: "Service connection", level: 1 })).toBeVisible();
    await expect(page.getByTestId("service-health")).toHaveText("The service says it is healthy.");
    await expect(page.getByTestId("service-links")).toContainText("get-a-quote");
    await expect(page.getByText("are switched on in the service's own dashboard")).toBeVisible();

    // The e2e sandbox starts with no registration of this address.
    await page.getByRole("button", { name: "Register this address" }).click();
    await expect(page.getByTestId("new-signing-secret")).not.toBeEmpty();
    const ours = page.getByTestId("service-webhooks").getByRole("row").filter({ hasText: "this Coverdesk" });
    await expect(ours).toHaveCount(1);
    const state = ours.getByRole("cell").nth(2);
    await expect(state).toHaveText("Active");
    await expect(page.getByRole("button", { name: "Register this address" })).toHaveCount(0);

    await ours.getByRole("button", { name: "Pause deliveries" }).click();
    await expect(state).toHaveText("Paused");
    await ours.getByRole("button", { name: "Resume deliveries" }).click();
    await expect(state).toHaveText("Active");
  });
});

test.describe("service connection, as manager", () => {
  test.use({ storageState: storageStateOf("manager") });

  test("is not there for a manager", async ({ page }) => {
    const response = await page.goto("/admin/service");
    expect(response?.status()).toBe(404);
  });
});
