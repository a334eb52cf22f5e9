import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";
import { SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";

// The sandbox's hostile account (markup and SQL in the holder's name, markup in a document title
// and, for a business, in its name) shows as plain text wherever it appears: in the list and on
// its page, with no element made from it and no script run. pull-detail.spec.ts checks the
// heading; this covers the list row and the document title, which it only checked when present.

type ServicePull = {
  pull_id: string;
  status: string;
  type: string;
  parent_pull_id: string | null;
  is_archived: boolean;
  first_name: string | null;
  last_name: string | null;
  documents: Array<{ title: string }>;
  policies: Array<{ commercial_named_insureds: Array<{ name: string | null }> }>;
};

let hostile: ServicePull;

test.beforeAll(async () => {
  const service = await playwrightRequest.newContext({ extraHTTPHeaders: { authorization: SERVICE_AUTH } });
  const response = await service.get(`${TEAM_BASE}/pulls?limit=100`);
  expect(response.ok()).toBe(true);
  const { pulls } = (await response.json()) as { pulls: ServicePull[] };
  await service.dispose();
  const found = pulls.find(
    (p) =>
      p.status === "SUCCESS" &&
      p.type === "PULLING_DATA" &&
      p.parent_pull_id === null &&
      !p.is_archived &&
      (p.first_name ?? "").includes("<script>"),
  );
  if (!found) throw new Error("the sandbox has no hostile pull");
  hostile = found;
});

test.use({ storageState: storageStateOf("manager") });

function failOnDialog(page: Page) {
  page.on("dialog", (dialog) => {
    throw new Error(`a script ran: ${dialog.message()}`);
  });
}

test("the list shows the hostile name as text", async ({ page }) => {
  failOnDialog(page);
  const row = page.getByTestId("pull-row").filter({ hasText: hostile.first_name ?? "" });
  await expect(async () => {
    await page.goto(`/pulls?q=${encodeURIComponent("O'Neil")}`);
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await expect(row).toContainText(hostile.first_name ?? "");
  await expect(row).toContainText("DROP TABLE pulls;--");
  expect(await page.locator("main script, main img[src='x'], main b").count()).toBe(0);
});

test("the pull's page shows the hostile document title and business name as text", async ({ page }) => {
  failOnDialog(page);
  const title = hostile.documents.find((document) => document.title.includes("<b>"))?.title;
  expect(title, "the hostile pull carries a document with markup in its title").toBeTruthy();
  await page.goto(`/pulls/${hostile.pull_id}`);
  const link = page
    .locator("#documents")
    .getByTestId("document-link")
    .filter({ hasText: title ?? "" });
  await expect(link).toHaveCount(1);
  await expect(link).toContainText("<b>bold</b>");
  expect(await page.locator("#documents b").count()).toBe(0);
  const business = hostile.policies
    .flatMap((p) => p.commercial_named_insureds)
    .find((insured) => (insured.name ?? "").includes("<img"))?.name;
  if (business) await expect(page.getByText(business).first()).toBeVisible();
  expect(await page.locator("main script, main img[src='x'], main b").count()).toBe(0);
});
