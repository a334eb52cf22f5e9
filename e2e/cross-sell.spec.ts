import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// Cross-sell as a manager finds it: from the main navigation, the households of the sandbox's
// book counted by gap, filtered to one gap, a household opened on its pull page where the same
// gap is written out with its figures, and the filtered list downloaded as CSV.

test.use({ storageState: storageStateOf("manager") });

test("a manager opens Cross-sell from the menu, filters by a gap, opens a household and downloads the CSV", async ({
  page,
}) => {
  // The first request may wait for the sandbox's book to be stored.
  test.setTimeout(150_000);
  await page.goto("/pulls");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cross-sell" }).click();
  await expect(page).toHaveURL(/\/cross-sell$/);
  await expect(page.getByRole("heading", { name: "Cross-sell", level: 1 })).toBeVisible();

  // The sandbox's book arrives by webhook: homes without a flood policy show once it is stored.
  await expect(async () => {
    await page.goto("/cross-sell");
    await expect(page.getByTestId("gap-counts").getByRole("link", { name: /No flood policy\s*[1-9]/ })).toBeVisible();
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  await expect(page.getByTestId("cross-sell-totals")).toContainText(
    /\d+ households?, \$[\d,]+ a year of premium in play/,
  );

  // Filter by the gap: every row has it, the URL keeps it, and the total is its count.
  const floodCount = Number(
    (
      (await page
        .getByTestId("gap-counts")
        .getByRole("link", { name: /No flood policy/ })
        .textContent()) ?? ""
    ).replace(/\D/g, ""),
  );
  await page.getByRole("combobox", { name: "Gap", exact: true }).selectOption("NO_FLOOD");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/gap=NO_FLOOD/);
  await expect(page.getByTestId("cross-sell-totals")).toContainText(`${floodCount} household`);
  await expect(page.getByTestId("gap-counts").getByRole("link", { name: /No flood policy/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  const rows = page.getByTestId("cross-sell-row");
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  for (const row of await rows.all()) await expect(row).toContainText("No flood policy");
  const firstText = (await rows.first().textContent()) ?? "";
  expect(firstText).not.toMatch(/NaN|undefined|Invalid/);

  const serious = (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
  expect(serious).toEqual([]);

  // The CSV holds the same households.
  const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toBe("/api/cross-sell/csv?gap=NO_FLOOD");
  const download = await page.request.get(csvHref ?? "");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await download.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toContain("premium in play");
  expect(lines.slice(1)).toHaveLength(floodCount);
  for (const line of lines.slice(1)) expect(line).toContain("No flood policy");

  // Open the household: its pull page says the same gap, in words with its figures.
  const link = rows.first().getByRole("link").first();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/pulls\/[0-9a-f-]{36}$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  const section = page.getByTestId("household-cross-sell");
  await expect(section.getByRole("heading", { name: "Cross-sell" })).toBeVisible();
  const gap = section.locator('[data-gap="NO_FLOOD"]');
  await expect(gap).toContainText(/flood/i);
  await expect(gap).toContainText(/\$[\d,]+ a year|premium not stated/);
  expect((await section.textContent()) ?? "").not.toMatch(/NaN|undefined/);
});
