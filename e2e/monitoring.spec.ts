import { expect, test } from "@playwright/test";
import { SANDBOX_CONTROL, SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";
import { linkMonitoredAccount } from "./monitored-account";
import { storageStateOf } from "./roles";

// Monitoring a pull from its page: a too-short interval is refused before any call, then
// monitoring goes on and off through the service, and the page shows what the service says.

const SANDBOX = TEAM_BASE;
const AUTH = SERVICE_AUTH;

type ServicePull = {
  pull_id: string;
  status: string;
  type: string;
  parent_pull_id: string | null;
  created_at: string;
};
type ServiceMonitoring = { monitoring_id: string; initial_pull_id: string | null; latest_pull_id: string | null };

test.use({ storageState: storageStateOf("manager") });

/** Every pull of an account the service monitors or monitored (other specs link and monitor accounts of their own). */
async function pullsOfMonitoredAccounts(): Promise<Set<string | null>> {
  const get = async (path: string) => (await fetch(`${SANDBOX}${path}`, { headers: { authorization: AUTH } })).json();
  const { monitorings } = (await get("/monitorings?limit=100")) as { monitorings: ServiceMonitoring[] };
  const ids = new Set<string | null>();
  // The service's pulls carry no account_identifier: a monitoring's own pull list names its account's pulls.
  for (const m of monitorings) {
    ids.add(m.initial_pull_id).add(m.latest_pull_id);
    const detail = (await get(`/monitorings/${m.monitoring_id}?with_pulls=true`)) as { pulls?: ServicePull[] };
    for (const p of detail.pulls ?? []) ids.add(p.pull_id);
  }
  return ids;
}

test("a manager turns monitoring on and off, and a 29-day interval is refused first", async ({ page }) => {
  const list = (await (await fetch(`${SANDBOX}/pulls?limit=100`, { headers: { authorization: AUTH } })).json()) as {
    pulls: ServicePull[];
  };
  // An account nobody monitors yet. The oldest such pull: a seeded account of its own, where a
  // pull linked by another spec may share its account with one that spec monitors.
  const monitoredPulls = await pullsOfMonitoredAccounts();
  const [recent] = list.pulls
    .filter(
      (p) =>
        p.status === "SUCCESS" &&
        p.type === "PULLING_DATA" &&
        !p.parent_pull_id &&
        !monitoredPulls.has(p.pull_id) &&
        Date.now() - Date.parse(p.created_at) < 30 * 86_400_000,
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  expect(recent).toBeDefined();
  await expect(async () => {
    const response = await page.goto(`/pulls/${recent?.pull_id}`);
    expect(response?.status()).toBe(200);
  }).toPass({ timeout: 60_000 });

  const panel = page.getByTestId("monitoring-panel");
  await expect(panel).toContainText("bills each refresh like a new pull");
  await expect(page.getByTestId("monitoring-status")).toHaveText("Not monitored.");
  await panel.getByLabel("Every").fill("29");
  await panel.getByLabel("Unit").selectOption("D");
  await panel.getByRole("button", { name: "Turn monitoring on" }).click();
  await expect(panel.getByRole("alert")).toHaveText("Monitoring can refresh at most every 30 days.");

  await panel.getByLabel("Every").fill("1");
  await panel.getByLabel("Unit").selectOption("M");
  await panel.getByRole("button", { name: "Turn monitoring on" }).click();
  await expect(page.getByTestId("monitoring-status")).toContainText("Active, every month; next refresh");

  await panel.getByRole("button", { name: "Turn monitoring off" }).click();
  await expect(page.getByTestId("monitoring-status")).toHaveText("Stopped, every month");
  await page.reload();
  await expect(page.getByTestId("monitoring-status")).toHaveText("Stopped, every month");
});

test("a monitored account refreshes, and the new pull's history says what changed", async ({ page, request }) => {
  const { monitoringId } = await linkMonitoredAccount(page);
  const refreshed = (await (
    await request.post(`${SANDBOX_CONTROL}/monitorings/${monitoringId}/refresh`, { data: {} })
  ).json()) as { pull_id: string };

  await expect(async () => {
    expect((await page.goto(`/pulls/${refreshed.pull_id}`))?.status()).toBe(200);
    await expect(page.getByTestId("account-history")).toContainText("Mortgagee added:", { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await expect(page.getByTestId("account-history")).toContainText("First pull of this account.");
});

test("an account that needs its consumer shows on the reconnect worklist with the link to send", async ({
  page,
  request,
}) => {
  const { monitoringId } = await linkMonitoredAccount(page);
  const response = await request.post(`${SANDBOX_CONTROL}/monitorings/${monitoringId}/reconnect-needed`, {
    data: { auth_status: "IDENTITY_VERIFICATION_OPTIONS" },
  });
  expect(response.ok()).toBe(true);
  await expect(async () => {
    await page.goto("/reconnect");
    await expect(page.getByTestId("reconnect-list")).toContainText("They must choose how to receive a code", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await expect(page.getByTestId("reconnect-list").getByRole("button", { name: "Copy link" }).first()).toBeVisible();
});

test("a manager monitors a selection from the list", async ({ page }) => {
  const since = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  await expect(async () => {
    await page.goto(`/pulls?status=SUCCESS&type=PULLING_DATA&monitored=no&from=${since}`);
    expect(await page.getByTestId("pull-row").count()).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await page.getByTestId("pull-row").first().getByRole("checkbox").check();
  await page.getByRole("button", { name: "Monitor selected" }).click();
  await expect(page.getByRole("status")).toHaveText("1 now monitored.");
});
