import { expect, test, type Browser, type Page } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";
import { SANDBOX_CONTROL, SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";

// The service's policy check end to end: an admin sets the team's rules on /admin/policy-check
// (saved at the service), an agent runs the check again on a queue pull and reads each rule's
// outcome with the values, downloads the service's report, and a plan without the feature is
// said in plain words everywhere. The team's rules and plan are put back afterwards.

const ALL_OFF = {
  policy_check_settings: {
    vehicle: {
      NO_COLLISION_COVERAGE: false,
      MIN_BODILY_INJURY_COVERAGE: { per_person_cents: null, per_accident_cents: null },
    },
  },
};

async function setPlan(policyCheck: boolean) {
  const response = await fetch(`${SANDBOX_CONTROL}/plan`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ policyCheck }),
  });
  expect(response.ok).toBe(true);
}

async function pageAs(browser: Browser, role: "admin" | "agent"): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role) });
  return context.newPage();
}

test.afterAll(async () => {
  await setPlan(true);
  await fetch(`${TEAM_BASE}/policyChecks/settings`, {
    method: "POST",
    headers: { authorization: SERVICE_AUTH, "content-type": "application/json" },
    body: JSON.stringify(ALL_OFF),
  });
});

test("an admin sets the rules at the service and an agent runs the check again and reads it", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await pageAs(browser, "admin");
  await admin.goto("/admin/rules");
  await admin.getByRole("link", { name: "Set the policy check rules" }).click();
  await expect(admin.getByRole("heading", { name: "Policy check rules" })).toBeVisible();
  const form = admin.getByRole("form", { name: "Policy check rules" });
  // Bad input is named, and nothing is saved.
  await form.getByLabel("Highest collision deductible").fill("a lot");
  await form.getByRole("button", { name: "Save at the service" }).click();
  await expect(form.getByRole("alert")).toContainText("Highest collision deductible: Give an amount in dollars");
  await form.getByLabel("Highest collision deductible").fill("");
  await form.getByLabel("The vehicle has collision coverage").check();
  await form.getByLabel("Lowest bodily injury limits, per person").fill("1,000,000");
  await form.getByLabel("Lowest bodily injury limits, per accident").fill("2,000,000");
  await form.getByRole("button", { name: "Save at the service" }).click();
  await expect(form.getByRole("status")).toContainText("Saved at the service");
  await admin.reload();
  await expect(admin.getByLabel("Lowest bodily injury limits, per person")).toHaveValue("1000000");
  await expect(admin.getByLabel("The vehicle has collision coverage")).toBeChecked();

  const agent = await pageAs(browser, "agent");
  const [path = ""] = await listedPullPaths(agent, "assignee=unassigned&status=SUCCESS&policyType=AUTO&sort=name");
  expect(path).toMatch(/^\/pulls\/[0-9a-f-]{36}$/);
  await agent.goto(path);
  const section = agent.getByTestId("policy-check");
  await expect(agent.getByRole("heading", { name: "Policy check", level: 2 })).toBeVisible();
  await section.getByRole("button", { name: "Run the check again" }).click();
  await expect(section.getByTestId("policy-check-source")).toContainText("Run again by Alex Agent", {
    timeout: 20_000,
  });
  // A million per person is above what the sandbox's carriers write: it fails, with the values.
  await expect(section.getByTestId("policy-check-status")).toHaveText("Not compliant: at least one rule failed");
  const failed = section.locator('[data-testid="policy-check-row"][data-rule="MIN_BODILY_INJURY_COVERAGE"]').first();
  await expect(failed).toHaveAttribute("data-outcome", "FAIL");
  await expect(failed).toContainText("Bodily injury limits at least the minimum");
  await expect(failed).toContainText("$1,000,000");
  // Beside it, the carrier's own limits, read from the pull.
  await expect(failed.getByTestId("policy-check-on-file")).toContainText(/per person|combined|none listed/);
  await expect(
    section.locator('[data-testid="policy-check-row"][data-rule="NO_COLLISION_COVERAGE"]').first(),
  ).toBeVisible();
  await expect(agent.getByTestId("pull-history")).toContainText("Alex Agent ran the service's policy check again");

  // The service's report: a PDF, relayed.
  const href = await section.getByTestId("policy-check-report-link").getAttribute("href");
  expect(href).toBe(`/api${path}/policy-check-report`);
  const report = await agent.request.get(href ?? "");
  expect(report.status()).toBe(200);
  expect(report.headers()["content-type"]).toBe("application/pdf");
  expect((await report.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // Without the feature in the plan: plain words on the pull, the report and the admin page.
  await setPlan(false);
  try {
    await section.getByRole("button", { name: "Run the check again" }).click();
    await expect(section.getByRole("alert")).toContainText(
      "The agency's plan with the service does not include the policy check",
    );
    const refused = await agent.request.get(href ?? "");
    expect(refused.status()).toBe(403);
    expect(refused.headers()["content-type"]).toMatch(/^text\/plain/);
    expect(await refused.text()).toContain("does not include the policy check");
    await admin.goto("/admin/policy-check");
    await expect(admin.getByTestId("policy-check-unavailable")).toContainText("does not include the policy check");
  } finally {
    await setPlan(true);
  }
});
