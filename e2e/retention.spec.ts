import { expect, test } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// The retention page and legal holds: an admin reads the dry run, is refused a period under the
// legal floor, and places and lifts a hold on a pull; an agent finds neither.

test.describe("retention, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("shows the dry run per kind and refuses an audit trail under five years", async ({ page }) => {
    await page.goto("/pulls");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
    await page.getByRole("navigation", { name: "Compliance" }).getByRole("link", { name: "Retention" }).click();
    await expect(page.getByRole("heading", { name: "Retention", level: 1 })).toBeVisible();
    await expect(page.getByTestId("dry-run-row")).toHaveCount(5);
    for (const sentence of await page.getByTestId("dry-run-sentence").allTextContents())
      expect(sentence).toMatch(/would be disposed of on|Kept/);

    const audit = page.getByTestId("retention-AUDIT_TRAIL");
    await audit.getByRole("radio", { name: /Dispose of/ }).check();
    const months = audit.getByLabel("Audit trail: months");
    await months.fill("36");
    // The browser refuses it first (the field's minimum)...
    expect(await months.evaluate((el: HTMLInputElement) => el.validity.rangeUnderflow)).toBe(true);
    // ...and the server too, whatever a browser lets through.
    await months.evaluate((el: HTMLInputElement) => el.removeAttribute("min"));
    await page.getByRole("button", { name: "Save the schedule" }).click();
    await expect(page.getByRole("form", { name: "Retention schedule" }).getByRole("alert")).toContainText(
      "from 60 to 240",
    );
  });

  test("counts for the run on a day the admin names", async ({ page }) => {
    const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/admin/retention?on=${day}`);
    await expect(page.getByRole("caption")).toContainText("The disposal run of");
    await expect(page.getByTestId("dry-run-sentence").first()).toContainText("would be disposed of on");
  });

  test("places a legal hold on a pull and lifts it, each with a reason", async ({ page }) => {
    const paths = await listedPullPaths(page, "");
    const reason = `E2E matter ${Date.now()}`;
    let placed = false;
    for (const path of paths.slice(0, 5)) {
      await page.goto(path);
      const panel = page.getByTestId("legal-hold-panel");
      await expect(panel).toBeVisible();
      if ((await panel.getByText("This pull is on hold").count()) > 0) continue;
      await panel.getByRole("radio", { name: /This pull/ }).check();
      await panel.getByLabel("Reason").fill(reason);
      await panel.getByRole("button", { name: "Place the hold" }).click();
      await expect(panel.getByRole("status")).toContainText("The pull is on legal hold");
      placed = true;
      break;
    }
    expect(placed).toBe(true);
    await page.reload();
    const hold = page.getByTestId("legal-hold").filter({ hasText: reason });
    await expect(hold).toBeVisible();
    await hold.getByLabel("Why the hold is lifted").fill("Matter closed");
    await hold.getByRole("button", { name: "Lift" }).click();
    // The lifted hold leaves the panel (and its form with it).
    await expect(page.getByTestId("legal-hold").filter({ hasText: reason })).toHaveCount(0);
  });
});

test.describe("retention, as agent", () => {
  test.use({ storageState: storageStateOf("agent") });

  test("is not there: no link and a 404 page", async ({ page }) => {
    await page.goto("/pulls");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" })).toHaveCount(0);
    expect((await page.goto("/admin"))?.status()).toBe(404);
    const response = await page.goto("/admin/retention");
    expect(response?.status()).toBe(404);
  });
});
