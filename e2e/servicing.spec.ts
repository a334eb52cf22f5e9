import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";
import { SANDBOX_CONTROL } from "./sandbox-urls";

// A servicing request end to end: an agent takes a freshly linked account, marks it won, asks the
// carrier to add a mortgagee, and the consumer (no session) confirms on the Coverdesk page; the
// pull page then shows the change done, from the service's webhooks.

test.use({ storageState: storageStateOf("agent") });

test("an agent asks for a new mortgagee, the client confirms, and the pull shows it done", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // Travelers lets the service change mortgagees; user_good has a home and an auto policy there.
  const response = await fetch(`${SANDBOX_CONTROL}/links`, {
    method: "POST",
    body: JSON.stringify({ username: "user_good", password: "pass_good", carrier: "travelers" }),
    headers: { "content-type": "application/json" },
  });
  expect(response.ok).toBe(true);
  const { pull_id: pullId } = (await response.json()) as { pull_id: string };
  await expect(async () => {
    expect((await page.goto(`/pulls/${pullId}`))?.status()).toBe(200);
    await expect(page.getByTestId("workflow-stage")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });

  // The agent takes it (when it is still in the queue) and marks it won.
  const take = page.getByRole("button", { name: "Take this pull" });
  if (await take.isVisible()) {
    await take.click();
    await expect(page.getByTestId("workflow-assignee")).toHaveText("Alex Agent");
  }
  await expect(page.getByTestId("servicing-panel")).toHaveCount(0);
  await page.getByText("Won", { exact: true }).click();
  await page.getByLabel("Premium won (per year)").fill("2,310");
  await page.getByRole("button", { name: "Save stage" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked won." })).toBeVisible();
  await page.reload();

  const panel = page.getByTestId("servicing-panel");
  await expect(panel).toBeVisible();
  const form = panel.getByTestId("servicing-form");
  await form.getByLabel("Add a mortgagee").check();
  // A bad address is refused by name, and what was typed stays.
  await form.getByLabel("Lender's name").fill("Harborview Savings Bank");
  await form.getByLabel("Lender's mailing address").fill("somewhere in town");
  await form.getByRole("button", { name: "Ask the carrier" }).click();
  await expect(form.getByRole("alert")).toContainText("full mailing address");
  await expect(form.getByLabel("Lender's name")).toHaveValue("Harborview Savings Bank");
  await form.getByLabel("Lender's mailing address").fill("400 Harbor Way, Boston, MA 02110");
  await form.getByLabel("Loan number (optional)").fill("HV-20931");
  await form.getByRole("button", { name: "Ask the carrier" }).click();
  await expect(form.getByRole("status")).toContainText("Sent to the service");

  const request = panel.getByTestId("servicing-request").first();
  await expect(request).toContainText("Add Harborview Savings Bank");
  const link = request.getByTestId("servicing-confirm-link");
  await expect(link).toHaveValue(/\/servicing\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  const url = await link.inputValue();

  // The consumer: no session, a phone-sized screen.
  const consumer = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width: 375, height: 740 },
  });
  const tab = await consumer.newPage();
  const opened = await tab.goto(url);
  expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
  expect(tab.url()).not.toContain("/login");
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Confirm a change to your policy");
  await expect(tab.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(tab.getByTestId("servicing-change")).toContainText("Add Harborview Savings Bank");
  await expect(tab.getByRole("navigation")).toHaveCount(0);
  // The page waits for the carrier to be ready, then asks.
  const confirm = tab.getByRole("button", { name: "Confirm the change" });
  await expect(confirm).toBeVisible({ timeout: 60_000 });
  await confirm.click();
  await expect(tab.getByTestId("servicing-submitting").or(tab.getByTestId("servicing-done"))).toBeVisible({
    timeout: 30_000,
  });
  await expect(tab.getByTestId("servicing-done")).toBeVisible({ timeout: 60_000 });
  await consumer.close();

  // Staff see it done (the page follows the webhooks by itself), and the trail has both steps.
  await expect(request.getByTestId("servicing-status")).toHaveText("Done: the carrier made the change.", {
    timeout: 60_000,
  });
  await expect(request.getByTestId("servicing-confirm-link")).toHaveCount(0);
  const history = page.getByTestId("pull-history");
  await expect(history).toContainText(
    "Alex Agent asked the carrier, through the service, to add Harborview Savings Bank",
  );
  await expect(history).toContainText("The client confirmed on their page");

  // A link that is not ours says so, without a login.
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const other = await stranger.newPage();
  const missing = await other.goto("/servicing/AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
  expect(missing?.status()).toBe(404);
  await expect(other.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  await stranger.close();
});
