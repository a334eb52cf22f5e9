import { expect, test, type Browser } from "@playwright/test";
import { storageStateOf, type RoleName } from "./roles";

// The agency's pipeline end to end: the admin assigns, the agent wins it, the manager sees it,
// and the audit trail has all of it.

test.describe.configure({ mode: "serial" });

async function as(browser: Browser, role: RoleName) {
  const context = await browser.newContext({ storageState: storageStateOf(role) });
  return { page: await context.newPage(), close: () => context.close() };
}

let pullPath = "";

test("the admin assigns a pull to the agent", async ({ browser }) => {
  const admin = await as(browser, "admin");
  await expect(async () => {
    await admin.page.goto("/pulls?assignee=unassigned&status=SUCCESS&sort=name");
    expect(await admin.page.getByTestId("pull-row").count()).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await admin.page.getByTestId("pull-row").first().getByRole("link").click();
  await admin.page.waitForURL(/\/pulls\/[0-9a-f-]{36}$/);
  pullPath = new URL(admin.page.url()).pathname;
  await admin.page.getByLabel("Assignee").selectOption({ label: "Alex Agent" });
  await admin.page.getByRole("button", { name: "Save assignee" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Assigned.");
  await admin.page.reload();
  await expect(admin.page.getByTestId("workflow-assignee")).toHaveText("Alex Agent");
  await admin.close();
});

test("the agent sees it as new, refuses a bad premium, and marks it won", async ({ browser }) => {
  const agent = await as(browser, "agent");
  await agent.page.goto("/my");
  await expect(agent.page.getByTestId("new-assignments")).toBeVisible();
  await agent.page.goto(pullPath);
  await agent.page.getByText("Won", { exact: true }).click();
  await agent.page.getByLabel("Premium won (per year)").fill("-12");
  await agent.page.getByRole("button", { name: "Save stage" }).click();
  await expect(agent.page.getByRole("alert").filter({ hasText: "dollars and cents" })).toBeVisible();
  await expect(agent.page.getByTestId("workflow-stage")).toHaveText("Working");

  await agent.page.getByLabel("Premium won (per year)").fill("1,842.50");
  await agent.page.getByRole("button", { name: "Save stage" }).click();
  await expect(agent.page.getByRole("status")).toHaveText("Marked won.");
  await agent.page.reload();
  await expect(agent.page.getByTestId("workflow-stage")).toHaveText("Won");
  await expect(agent.page.getByTestId("workflow-premium")).toHaveText("$1,842.50");
  await agent.close();
});

test("the manager sees the won pull, and the audit trail has every step", async ({ browser }) => {
  const manager = await as(browser, "manager");
  await manager.page.goto("/pulls?stage=WON");
  await expect(manager.page.getByTestId("pull-row").first()).toContainText("Alex Agent");
  await manager.page.goto(pullPath);
  const history = manager.page.getByTestId("pull-history");
  await expect(history).toContainText("Avery Admin assigned the pull to Alex Agent");
  await expect(history).toContainText("Alex Agent moved the pull from Working to Won with a premium of $1,842.50");
  await manager.close();

  const admin = await as(browser, "admin");
  await admin.page.goto("/admin/audit?action=STAGE_CHANGED");
  await expect(admin.page.getByTestId("audit-entries")).toContainText("$1,842.50");
  await admin.close();
});

test("the reports credit the win to the agent, to the cent, on the page and in the CSV", async ({ browser }) => {
  const manager = await as(browser, "manager");
  await manager.page.goto("/reports");
  const byAgent = manager.page.getByRole("figure").filter({ hasText: "Won premium by agent" }).first();
  const row = byAgent.getByRole("row").filter({ hasText: "Alex Agent" });
  await expect(row).toContainText("$1,842.50");
  const csv = await manager.page.request.get("/api/reports/csv?table=byAgent");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain("Alex Agent,1,1842.50");
  // The figure drills down to the pull behind it.
  await row.getByRole("link", { name: "Alex Agent" }).click();
  await expect(manager.page.getByTestId("pull-row")).toHaveCount(1);
  await manager.close();

  const agent = await as(browser, "agent");
  await agent.page.goto("/my");
  await expect(agent.page.getByTestId("my-won-month")).toHaveText("$1,842.50");
  expect((await agent.page.request.get("/api/reports/csv?table=byAgent")).status()).toBe(404);
  const reports = await agent.page.goto("/reports");
  expect(reports?.status()).toBe(404);
  await agent.close();
});

test("an agent cannot open another agent's pull", async ({ browser }) => {
  const admin = await as(browser, "admin");
  await admin.page.goto(pullPath);
  await admin.page.getByLabel("Assignee").selectOption({ label: "Morgan Manager" });
  await admin.page.getByRole("button", { name: "Save assignee" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Assigned.");
  await admin.close();
  const agent = await as(browser, "agent");
  const response = await agent.page.goto(pullPath);
  expect(response?.status()).toBe(404);
  await agent.close();
});
