import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// An open pull page follows changes made elsewhere, without a reload.

test("the manager's open page shows an assignment the admin just made", async ({ browser }) => {
  const managerContext = await browser.newContext({ storageState: storageStateOf("manager") });
  const adminContext = await browser.newContext({ storageState: storageStateOf("admin") });
  const manager = await managerContext.newPage();
  const admin = await adminContext.newPage();

  await expect(async () => {
    await manager.goto("/pulls?assignee=unassigned&status=SUCCESS&sort=premium");
    expect(await manager.getByTestId("pull-row").count()).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  // Opened by its address: what this test follows is the open page, not the list's link.
  const href = await manager.getByTestId("pull-row").first().locator('a[href^="/pulls/"]').first().getAttribute("href");
  await manager.goto(href ?? "");
  await manager.waitForURL(/\/pulls\/[0-9a-f-]{36}$/);
  await expect(manager.getByTestId("workflow-assignee")).toHaveText("Unassigned");

  await admin.goto(new URL(manager.url()).pathname);
  await admin.getByLabel("Assignee").selectOption({ label: "Morgan Manager" });
  await admin.getByRole("button", { name: "Save assignee" }).click();
  await expect(admin.getByRole("status")).toHaveText("Assigned.");

  // No reload on the manager's side: the page notices the change by itself.
  await expect(manager.getByTestId("workflow-assignee")).toHaveText("Morgan Manager", { timeout: 15_000 });
  await managerContext.close();
  await adminContext.close();
});
