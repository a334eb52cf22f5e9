import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { linkMonitoredAccount } from "./monitored-account";
import { storageStateOf, type RoleName } from "./roles";
import { SANDBOX_CONTROL } from "./sandbox-urls";

// A deal that comes back on its own, end to end: Alex wins a client, the service's refresh
// finds the policy cancelled, and the account comes back to Working on Alex's My pulls (with
// what it was won at), with a banner on its page; Alex wins it again, and the manager's Reports
// show it as a recycled win, on the page and in the CSV.

test.describe.configure({ mode: "serial" });

async function as(browser: Browser, role: RoleName) {
  const context = await browser.newContext({ storageState: storageStateOf(role) });
  return { page: await context.newPage(), close: () => context.close() };
}

async function markWon(page: Page, premium: string) {
  await page.getByText("Won", { exact: true }).click();
  await page.getByLabel("Premium won (per year)").fill(premium);
  await page.getByRole("button", { name: "Save stage" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked won." })).toBeVisible();
}

async function seriousViolations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
}

let returnedPath = "";

test("a won client whose refresh shows the policy cancelled comes back on the agent's My pulls", async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const manager = await as(browser, "manager");
  const { pullId, monitoringId } = await linkMonitoredAccount(manager.page);
  await manager.page.getByLabel("Assignee").selectOption({ label: "Alex Agent" });
  await manager.page.getByRole("button", { name: "Save assignee" }).click();
  await expect(manager.page.getByRole("status").filter({ hasText: "Assigned." })).toBeVisible();
  await manager.close();

  const agent = await as(browser, "agent");
  await agent.page.goto(`/pulls/${pullId}`);
  await markWon(agent.page, "1,500.00");

  // The service's scheduler refreshes the account and finds the policy cancelled.
  const refreshed = (await (
    await request.post(`${SANDBOX_CONTROL}/monitorings/${monitoringId}/refresh`, {
      data: { change: "policy_cancelled" },
    })
  ).json()) as { pull_id: string };
  expect(refreshed.pull_id).toMatch(/^[0-9a-f-]{36}$/);
  returnedPath = `/pulls/${refreshed.pull_id}`;

  const row = agent.page.getByTestId("came-back-row").filter({ has: agent.page.locator(`a[href="${returnedPath}"]`) });
  await expect(async () => {
    await agent.page.goto("/my");
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000] });
  await expect(row).toContainText("Client lost at a refresh");
  await expect(row).toContainText(/was cancelled/);
  await expect(row).toContainText("$1,500.00");
  await expect(row).toContainText("Alex Agent");
  expect(await seriousViolations(agent.page)).toEqual([]);
  await agent.close();
});

test("its page says it came back; won again, the banner goes", async ({ browser }) => {
  const agent = await as(browser, "agent");
  await agent.page.goto("/my");
  await agent.page.locator(`[data-testid="came-back-row"] a[href="${returnedPath}"]`).click();
  await agent.page.waitForURL(new RegExp(`${returnedPath}$`));
  const banner = agent.page.getByTestId("deal-return-banner");
  await expect(banner).toContainText("This client came back: a refresh shows the policy gone.");
  await expect(banner).toContainText("won at $1,500.00");
  await expect(agent.page.getByTestId("workflow-stage")).toHaveText("Working");
  await expect(agent.page.getByTestId("pull-history")).toContainText(
    "The client's refresh shows the policy gone: back to Working for Alex Agent.",
  );
  expect(await seriousViolations(agent.page)).toEqual([]);

  await markWon(agent.page, "2,100.00");
  await agent.page.reload();
  await expect(agent.page.getByTestId("workflow-stage")).toHaveText("Won");
  await expect(agent.page.getByTestId("deal-return-banner")).toHaveCount(0);
  await agent.page.goto("/my");
  await expect(agent.page.locator(`[data-testid="came-back-row"] a[href="${returnedPath}"]`)).toHaveCount(0);
  await agent.close();
});

test("the manager's Reports count it as a recycled win, on the page and in the CSV", async ({ browser }) => {
  const manager = await as(browser, "manager");
  await manager.page.goto("/reports");
  const figure = manager.page.getByTestId("recycled-wins");
  await expect(figure).toContainText("Recycled wins");
  const alex = figure.getByTestId("recycled-by-agent").getByRole("row").filter({ hasText: "Alex Agent" });
  await expect(alex).toContainText("$2,100.00");
  await expect(figure.getByTestId("recycled-by-kind")).toContainText("Client lost at a refresh");

  const csvHref = await figure.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toContain("table=recycledWins");
  const csv = await manager.page.request.get(csvHref ?? "");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const body = await csv.text();
  // After the byte-order mark that spreadsheets read UTF-8 by.
  expect(body.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("by,group,came back,won back,premium won back");
  expect(body).toMatch(/\r\nagent,Alex Agent,\d+,1,2100\.00\r\n/);
  await manager.close();
});
