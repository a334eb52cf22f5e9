import { expect, test } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// The hand-off to EZLynx end to end, as an agent: a queue pull with an auto policy shows the
// Hand-off section with its download and what the file leaves out; the file is EZLynx's EZAUTO
// XML, as an attachment, never cached; and the download is in the pull's history.

test.use({ storageState: storageStateOf("agent") });

test("an agent downloads a pull's EZLynx auto file and sees what it leaves out", async ({ page }) => {
  test.setTimeout(90_000);
  const [path] = await listedPullPaths(page, "assignee=unassigned&status=SUCCESS&policyType=AUTO&sort=name");
  expect(path).toBeTruthy();
  await page.goto(path ?? "/pulls");
  const panel = page.getByTestId("handoff-panel");
  await expect(page.getByRole("heading", { name: "Hand-off" })).toBeVisible();
  await expect(panel.getByTestId("ezlynx-auto-left-out")).toContainText("What the file leaves out");

  const href = await panel.getByTestId("ezlynx-auto-link").getAttribute("href");
  expect(href).toBe(`/api${path}/exports/ezlynx-auto`);
  const response = await page.request.get(href ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="EZLynx auto .+\.xml"$/);
  expect(response.headers()["cache-control"]).toBe("private, no-store");
  const xml = await response.text();
  expect(xml).toContain('<EZAUTO xmlns="http://www.ezlynx.com/XMLSchema/Auto/V200">');
  expect(xml).toContain("<Vehicles>");

  await page.goto(path ?? "/pulls");
  await expect(page.getByTestId("pull-history")).toContainText("downloaded the EZLynx auto file for EZLynx import");
});
