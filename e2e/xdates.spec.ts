import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import ICAL from "ical.js";
import { SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";
import { storageStateOf } from "./roles";

// X-dates as an agent finds them: from the main navigation, a policy of the sandbox's book with
// its date and premium, filtered by line, downloaded as CSV; on a phone the list remains; and
// the calendar feed, read without a session by a real iCalendar parser, until it is renewed.

type ServicePolicy = {
  policy_id: string;
  policy_type: string | null;
  carrier_friendly_name: string | null;
  carrier_policy_number: string | null;
};

async function servicePull(pullId: string): Promise<{ policies: ServicePolicy[] }> {
  const response = await fetch(`${TEAM_BASE}/pulls/${pullId}`, { headers: { authorization: SERVICE_AUTH } });
  const body = (await response.json()) as { pull?: { policies: ServicePolicy[] } } & { policies?: ServicePolicy[] };
  return body.pull ?? { policies: body.policies ?? [] };
}

test.use({ storageState: storageStateOf("agent") });

test("an agent opens X-dates from the menu, sees a policy with its date and premium, filters by line and downloads CSV", async ({
  page,
}) => {
  await page.goto("/my");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "X-dates" }).click();
  await expect(page).toHaveURL(/\/xdates$/);
  await expect(page.getByRole("heading", { name: "X-dates", level: 1 })).toBeVisible();

  // The sandbox's book arrives by webhook: the longest range fills once it is stored.
  await expect(async () => {
    await page.goto("/xdates?range=180");
    expect(await page.getByTestId("xdate-row").count()).toBeGreaterThan(0);
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  await expect(page.getByRole("link", { name: "180 days" })).toHaveAttribute("aria-current", "page");

  const row = page.getByTestId("xdate-row").first();
  const rowText = (await row.textContent()) ?? "";
  // A date as people write it, how far it is, and the premium at stake.
  expect(rowText).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  expect(rowText).toMatch(/today|tomorrow|in \d+ days/);
  expect(rowText).toMatch(/\$[\d,]+\/yr|not stated/);
  expect(rowText).not.toMatch(/Invalid Date|NaN|undefined/);
  await expect(page.getByTestId("xdate-totals")).toContainText(/X-dates? from .+ a year in premium at stake/);

  // The policy is the sandbox's own: its policy number and carrier are on the pull the row links to.
  const href = (await row.getByRole("link").first().getAttribute("href")) ?? "";
  const pullId = href.replace("/pulls/", "");
  const policies = (await servicePull(pullId)).policies;
  expect(policies.some((p) => p.carrier_policy_number && rowText.includes(p.carrier_policy_number))).toBe(true);

  // Filter by the first row's line: every row is of that line, and the URL keeps it.
  const line = policies.find((p) => p.carrier_policy_number && rowText.includes(p.carrier_policy_number))?.policy_type;
  expect(line).toBeTruthy();
  await page.getByLabel("Line of business").selectOption(String(line));
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`line=${line}`));
  await expect(page).toHaveURL(/range=180/);
  const rows = page.getByTestId("xdate-row");
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  const lineWords = String(line).toLowerCase().replace(/_/g, " ");
  for (const each of await rows.all()) await expect(each).toContainText(lineWords);

  // The CSV holds the same X-dates.
  const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toContain(`line=${line}`);
  const download = await page.request.get(csvHref ?? "");
  expect(download.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await download.text()).trim().split("\r\n");
  expect(lines[0]).toContain("x-date");
  if (shown < 50) expect(lines.slice(1)).toHaveLength(shown);
  for (const csvLine of lines.slice(1)) expect(csvLine).toContain(String(line));

  // No serious or critical accessibility violations on the page.
  const serious = (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
  expect(serious).toEqual([]);
});

test("on a phone the list stays readable and the page does not scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/xdates?range=180");
  await expect(page.getByTestId("xdate-calendar")).toBeHidden();
  await expect(page.getByTestId("xdate-table").or(page.getByTestId("xdates-empty"))).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
});

test("the calendar feed is read without a session, and renewing its address retires the old one", async ({ page }) => {
  await page.goto("/xdates");
  const panel = page.getByTestId("calendar-feed");
  const turnOn = panel.getByRole("button", { name: /Turn on|Renew address/ });
  await turnOn.click();
  const shownUrl = (await panel.getByTestId("calendar-feed-url").locator("code").textContent()) ?? "";
  expect(shownUrl).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  // The address names the app's public URL; the test reads it from the server it runs against.
  const feedPath = new URL(shownUrl).pathname;

  // No cookies: a calendar app's request.
  const read = await fetch(new URL(feedPath, page.url()));
  expect(read.status).toBe(200);
  expect(read.headers.get("content-type")).toMatch(/^text\/calendar/);
  expect(read.headers.get("cache-control")).toMatch(/private/);
  const calendar = new ICAL.Component(ICAL.parse(await read.text()));
  expect(calendar.name).toBe("vcalendar");
  for (const event of calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v))) {
    expect(event.summary).toMatch(/^X-date: /);
    expect(event.startDate.isDate).toBe(true);
  }

  await panel.getByRole("button", { name: "Renew address" }).click();
  await expect(panel.getByTestId("calendar-feed-url").locator("code")).not.toHaveText(shownUrl);
  const retired = await fetch(new URL(feedPath, page.url()));
  expect(retired.status).toBe(404);

  await panel.getByRole("button", { name: "Turn off" }).click();
  await expect(panel.getByTestId("calendar-feed-status")).toHaveText("Your feed is off.");
});
