import { expect, test, type Page } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// The coverage review end to end, as an agent: a pull of the queue opens on its review, a gap
// reads in words with its figures, the agent records that the client declined it (with a note)
// and sees who recorded it, and the client summary downloads as a PDF.

test.use({ storageState: storageStateOf("agent") });

/** Opens queue pulls with an auto policy until one whose review shows a gap; its path. */
async function openPullWithGap(page: Page): Promise<string> {
  for (const href of (
    await listedPullPaths(page, "assignee=unassigned&status=SUCCESS&policyType=AUTO&sort=name")
  ).slice(0, 8)) {
    await page.goto(href);
    await expect(page.getByRole("heading", { name: "Coverage review" })).toBeVisible();
    if ((await page.locator('[data-testid="coverage-finding"][data-severity="gap"]').count()) > 0) return href;
  }
  throw new Error("no queue pull with a coverage gap");
}

test("an agent reads a gap, records that the client declined it, and downloads the client summary", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const path = await openPullWithGap(page);
  const finding = page.locator('[data-testid="coverage-finding"][data-severity="gap"]').first();
  await expect(finding.getByText("Gap", { exact: true })).toBeVisible();
  // In words, with the figures behind it, and what to do next.
  await expect(finding.getByTestId("finding-detail")).toContainText(/\$\d{1,3}(,\d{3})*/);
  await expect(finding).toContainText("Next step:");
  const title = (await finding.getByTestId("finding-title").textContent()) ?? "";
  expect(title.length).toBeGreaterThan(5);

  await finding.getByText("Record the client's decision").click();
  await finding.getByLabel("Declined by client").check();
  await finding.getByLabel("Note (what was discussed)").fill("Client keeps the current limits to hold the premium.");
  await finding.getByRole("button", { name: "Save decision" }).click();
  // The page revalidates: the saved decision appears on the finding.
  await expect(finding.getByTestId("finding-decision")).toContainText("Declined by the client", { timeout: 20_000 });

  // Who and when, after a reload too.
  await page.goto(path);
  const decided = page.locator('[data-testid="coverage-finding"]').filter({ hasText: title }).first();
  const decision = decided.getByTestId("finding-decision");
  await expect(decision).toContainText("Declined by the client, recorded by Alex Agent");
  await expect(decision).toContainText("Client keeps the current limits to hold the premium.");
  await expect(decision.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);

  // The client summary: a PDF, as an attachment, never cached.
  const href = await page.getByTestId("client-summary-link").getAttribute("href");
  expect(href).toBe(`/api${path}/summary`);
  const response = await page.request.get(href ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename=".+\.pdf"$/);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const body = await response.body();
  expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The history says who recorded what.
  await expect(page.getByTestId("pull-history")).toContainText("Alex Agent recorded that the client declined");
});
