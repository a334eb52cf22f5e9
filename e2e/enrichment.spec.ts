import { expect, test, type Locator, type Page } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// Paid look-ups end to end, as an agent: a queue pull with a home opens on its public records;
// the property look-up asks for confirmation (charged to the agency), then shows the service's
// property data beside the carrier's; a reload shows the kept answer, with who asked and no
// button to pay again. A driver look-up without a permissible purpose is refused by the server;
// with one it is kept with its purpose, and the history records it.

test.use({ storageState: storageStateOf("agent") });

/** Opens queue pulls with a home until one whose home and a driver can still be looked up; its path. */
async function openPullWithHome(page: Page): Promise<string> {
  for (const href of (
    await listedPullPaths(page, "assignee=unassigned&status=SUCCESS&policyType=HOMEOWNERS&sort=name")
  ).slice(0, 10)) {
    await page.goto(href);
    await expect(page.getByRole("heading", { name: "Coverage review" })).toBeVisible();
    const home = page.locator('[data-testid="enrichment-home"][data-status="NONE"]');
    const driver = page.getByTestId("enrichment-driver").filter({ has: page.getByText("Look up the driving record") });
    if ((await home.count()) > 0 && (await driver.count()) > 0) return href;
  }
  throw new Error("no queue pull with a home and a driver to look up");
}

/** The confirm step of a look-up's form: the charge is said before anything is sent. */
async function openConfirm(block: Locator, button: string): Promise<Locator> {
  await block.getByRole("button", { name: button }).click();
  const confirm = block.getByTestId("enrichment-confirm");
  await expect(confirm).toContainText("charged to the agency");
  return confirm;
}

test("an agent confirms a property look-up, sees it beside the carrier's data, and the answer is kept", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const path = await openPullWithHome(page);

  // The property look-up: confirm, then the comparison.
  const first = page.locator('[data-testid="enrichment-home"][data-status="NONE"]').first();
  const heading = (await first.getByRole("heading").textContent()) ?? "";
  expect(heading).toMatch(/^Property data: .+, [A-Z]{2} \d{5}/);
  const confirm = await openConfirm(first, "Look up property data");
  await confirm.getByRole("button", { name: "Confirm the charge and look up" }).click();
  const home = page.getByTestId("enrichment-home").filter({ has: page.getByRole("heading", { name: heading }) });
  await expect(home.getByTestId("enrichment-comparison")).toBeVisible({ timeout: 30_000 });
  await expect(home.getByTestId("enrichment-line")).toHaveCount(5);
  await expect(home.locator('[data-field="year_built"]')).toContainText("Year built");
  await expect(home.getByTestId("enrichment-comparison-summary")).toContainText("from what the carrier has on file");

  // After a reload: the kept answer, who asked it, and no button to pay again.
  await page.goto(path);
  const kept = page.getByTestId("enrichment-home").filter({ has: page.getByRole("heading", { name: heading }) });
  await expect(kept).toHaveAttribute("data-status", "ANSWERED");
  await expect(kept.getByTestId("enrichment-comparison")).toBeVisible();
  await expect(kept.getByTestId("enrichment-asked-by")).toContainText("Looked up by Alex Agent");
  await expect(kept.getByTestId("enrichment-asked-by")).toContainText("not charged again");
  await expect(kept.getByTestId("enrichment-start")).toHaveCount(0);
  await expect(kept.getByRole("button")).toHaveCount(0);

  // A driving record: refused by the server without a permissible purpose…
  const askable = page
    .getByTestId("enrichment-driver")
    .filter({ has: page.getByText("Look up the driving record") })
    .first();
  const name = ((await askable.getByRole("heading", { level: 4 }).textContent()) ?? "").trim();
  // Pinned by name: once its button is pressed, the driver no longer matches "has a button". While
  // the confirm dialog is open the rest of the page is hidden from assistive technology (a modal),
  // so the heading is matched hidden or not.
  const driver = page
    .getByTestId("enrichment-driver")
    .filter({ has: page.getByRole("heading", { level: 4, name, exact: true, includeHidden: true }) })
    .first();
  const record = driver.getByTestId("enrichment-record");
  const form = await openConfirm(record, "Look up the driving record");
  const purpose = form.getByLabel(/Permissible purpose/);
  // The browser would stop an empty choice; the server must refuse it too.
  await purpose.evaluate((select) => select.removeAttribute("required"));
  const birth = form.getByLabel(/Date of birth/);
  if ((await birth.count()) > 0) await birth.fill("03/09/1984");
  await form.getByRole("button", { name: "Confirm the charge and look up" }).click();
  await expect(form.getByRole("alert")).toContainText("permissible purpose", { timeout: 20_000 });
  await expect(record).toHaveAttribute("data-status", "NONE");

  // …and kept, with the purpose, once one is chosen.
  await purpose.selectOption("INSURANCE_UNDERWRITING");
  await form.getByRole("button", { name: "Confirm the charge and look up" }).click();
  const done = record;
  await expect(done.getByTestId("enrichment-asked-by")).toContainText(
    "Permissible purpose: Insurance rating or underwriting",
    { timeout: 30_000 },
  );
  await expect(done.getByTestId("enrichment-start")).toHaveCount(0);

  // The history says who looked up what, and why.
  await page.goto(path);
  await expect(page.getByTestId("pull-history")).toContainText(
    `Alex Agent looked up the driving record for ${name} (permissible purpose: Insurance rating or underwriting`,
  );
  await expect(page.getByTestId("pull-history")).toContainText("Alex Agent looked up the property data for");
});
