import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// The admin's Service connection page against the sandbox: the service's health, the team's
// links, the event types reaching Coverdesk, and Coverdesk's own webhook paused and resumed.
// Other roles get 404.

test.describe("service connection, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("shows health, links and the events reaching Coverdesk, and pauses and resumes its webhook", async ({
    page,
  }) => {
    await page.goto("/admin/service");
    await expect(page.getByRole("heading", { name: "Service connection", level: 1 })).toBeVisible();
    await expect(page.getByTestId("service-health")).toHaveText("The service says it is healthy.");
    await expect(page.getByTestId("service-links")).toContainText("get-a-quote");
    await expect(page.getByText("are switched on in the service's own dashboard")).toBeVisible();

    // The e2e sandbox's webhook for this address was set up on the service's dashboard, every
    // event type switched on (SANDBOX_WEBHOOK_URL): listed as this Coverdesk's, nothing to register.
    const ours = page.getByTestId("service-webhooks").getByRole("row").filter({ hasText: "this Coverdesk" });
    await expect(ours).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Register this address" })).toHaveCount(0);
    const reconnect = page.getByTestId("service-event-type").filter({ hasText: "Monitoring reconnect" });
    await expect(reconnect).toContainText("On the service's dashboard");
    await expect(reconnect).toContainText("On Coverdesk's webhook");

    const state = ours.getByRole("cell").nth(2);
    await expect(state).toHaveText("Active");
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
