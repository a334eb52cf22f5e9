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
  // Its own row: other specs win pulls too (through the API, say), so it need not be first.
  const wonRow = manager.page.getByTestId("pull-row").filter({ has: manager.page.locator(`a[href="${pullPath}"]`) });
  await expect(wonRow).toContainText("Alex Agent");
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

test("the reports draw the win: by month and agent, the funnel, the close ratio, each beside its table", async ({
  browser,
}) => {
  const manager = await as(browser, "manager");
  const page = manager.page;
  await page.goto("/reports");

  // Each chart is an image named by what it shows, inside a figure with its table.
  const byMonth = page.getByRole("img", { name: /^Won premium by month, stacked by agent/ });
  await expect(byMonth).toBeVisible();
  await expect(byMonth).toHaveAttribute("aria-label", /Alex Agent \$1,842\.50/);
  const monthTable = page.getByRole("table", { name: "Won premium by month and agent" });
  await expect(monthTable.getByRole("columnheader", { name: "Alex Agent" })).toBeVisible();
  const thisMonth = new Date().toLocaleString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
  await expect(monthTable.getByRole("row").filter({ hasText: thisMonth })).toContainText("$1,842.50");
  await expect(
    page.getByRole("img", { name: /^Close ratio by agent, won of won and lost: .*Alex Agent 100% \(1 of 1\)/ }),
  ).toBeVisible();
  await expect(page.getByRole("img", { name: /^New linked accounts by month/ })).toBeVisible();

  // The funnel's bars say what its table says, step by step, and narrow down to the win.
  const funnel = page.getByRole("img", { name: /^Pipeline funnel/ });
  await expect(funnel).toBeVisible();
  const rows = page.getByTestId("funnel-row");
  await expect(rows).toHaveCount(5);
  const counts: number[] = [];
  for (const [i, key] of ["linked", "successful", "assigned", "worked", "won"].entries()) {
    const [step, count, share] = await rows.nth(i).getByRole("cell").allInnerTexts();
    const drawn = await page.getByTestId("funnel-chart").locator(`[data-bar="${key}"] text`).allTextContents();
    expect(drawn).toEqual([step, i === 0 ? count : `${count} · ${share}`]);
    counts.push(Number(count?.replace(/,/g, "")));
  }
  expect(counts[4]).toBeGreaterThanOrEqual(1);
  expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  expect(await funnel.getAttribute("aria-label")).toContain(`Won ${counts[4]}`);

  const split = await page.request.get("/api/reports/csv?table=byPeriodAgent");
  // Alex's row among the month's (other specs win pulls too, some through the API, credited to no one).
  expect(await split.text()).toMatch(
    /^\uFEFF?month starting,agent,won pulls,won premium\r?\n(?:.*\r?\n)*\d{4}-\d{2}-01,Alex Agent,1,1842\.50\r?\n/,
  );
  const funnelCsv = await (await page.request.get("/api/reports/csv?table=funnel")).text();
  expect(funnelCsv).toContain(`Won,${counts[4]},`);

  // Quarters as people write them, and a quick range that keeps the win in view.
  await page.getByRole("combobox", { name: /^By/ }).selectOption("quarter");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("img", { name: /^Won premium by quarter/ })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Won premium by quarter and agent" }).getByRole("link", { name: /^Q[1-4] \d{4}$/ }),
  ).not.toHaveCount(0);
  await page.getByRole("navigation", { name: "Date ranges" }).getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
  await expect(page).toHaveURL(/period=quarter/);
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
  // The win is in view (other specs win pulls too, so the total is at least it).
  await expect(page.getByTestId("won-total")).toHaveText(/^\$[\d,]+\.\d{2}$/);
  const total = Number((await page.getByTestId("won-total").innerText()).replace(/[$,]/g, ""));
  expect(total).toBeGreaterThanOrEqual(1842.5);
  const byAgent = page.getByRole("figure").filter({ hasText: "Won premium by agent" }).first();
  await expect(byAgent.getByRole("row").filter({ hasText: "Alex Agent" })).toContainText("$1,842.50");

  // At a phone's width the page does not scroll sideways and the charts fit it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/reports?period=week");
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  for (const chart of await page.getByRole("img").all()) {
    const box = await chart.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  }

  // A range with no wins says so instead of drawing an empty chart.
  await page.goto("/reports?from=2001-01-01&to=2001-12-31");
  await expect(page.getByTestId("won-by-period-empty")).toHaveText("No pulls were won in this range. Widen the dates.");
  await expect(page.getByRole("img")).toHaveCount(0);
  await manager.close();
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
