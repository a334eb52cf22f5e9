import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// Where business comes from and how fast it is worked, on the built app: the Reports page's
// per-link table names the links the sandbox's pulls came through as the service's widget list
// names them, beside the per-agent table, both downloadable; a filter it cannot read is named.

const LINK_NAMES = /Get a better quote in minutes|Review your coverage before renewal|Share your business policies/;

test("the reports show arrivals by link under the service's names, and by agent, with their CSV", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: storageStateOf("manager") });
  const page = await context.newPage();
  // The sandbox delivers its seeded pulls at start: wait until some are stored.
  await expect(async () => {
    await page.goto("/reports");
    await expect(page.getByTestId("sources-by-link-table")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 5_000] });

  const links = page.getByRole("table", { name: "Arrivals and results by link" });
  await expect(links.getByRole("rowheader").first()).toContainText(LINK_NAMES);
  await expect(links.getByRole("columnheader", { name: "First touch" })).toBeVisible();
  await expect(page.getByTestId("sources-by-link")).not.toContainText("did not name the links");
  const agents = page.getByRole("table", { name: "Arrivals and results by agent" });
  await expect(agents.getByRole("row")).not.toHaveCount(1);

  const csv = await page.request.get("/api/reports/csv?table=sourcesByLink");
  expect(csv.status()).toBe(200);
  const [header, ...rows] = (await csv.text()).trim().split("\r\n");
  expect(header).toBe(
    "link,public alias,widget id,arrived,completed,assigned,won,lost,won premium,close ratio,median minutes to first touch,median minutes to won,recycled wins",
  );
  expect(rows.join("\n")).toMatch(LINK_NAMES);
  expect((await page.request.get("/api/reports/csv?table=sourcesByAgent")).status()).toBe(200);

  // A filter that cannot be read is named and left out, as everywhere on the page.
  await page.goto("/reports?agent=nobody");
  await expect(page.getByRole("alert").filter({ hasText: "Left out filters" })).toContainText("agent");
  await expect(page.getByTestId("sources-by-link-table")).toBeVisible();
  await context.close();
});
