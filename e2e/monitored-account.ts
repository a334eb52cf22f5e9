import { expect, type Page } from "@playwright/test";
import { SANDBOX_CONTROL, SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";

// A consumer links user_good_discover, whose account the service monitors from its first
// pull; resolves once the monitoring exists and the pull's page opens for `page`'s user.
export async function linkMonitoredAccount(page: Page): Promise<{ pullId: string; monitoringId: string }> {
  const linked = (await (
    await fetch(`${SANDBOX_CONTROL}/links`, {
      method: "POST",
      body: JSON.stringify({ username: "user_good_discover", password: "pass_good" }),
      headers: { "content-type": "application/json" },
    })
  ).json()) as { pull_id: string };
  let monitoringId = "";
  await expect(async () => {
    const found = (await (
      await fetch(`${TEAM_BASE}/monitorings?pull_id=${linked.pull_id}`, { headers: { authorization: SERVICE_AUTH } })
    ).json()) as { monitorings: Array<{ monitoring_id: string }> };
    monitoringId = found.monitorings[0]?.monitoring_id ?? "";
    expect(monitoringId).not.toBe("");
  }).toPass({ timeout: 30_000 });
  await expect(async () => {
    expect((await page.goto(`/pulls/${linked.pull_id}`))?.status()).toBe(200);
  }).toPass({ timeout: 60_000, intervals: [500] });
  return { pullId: linked.pull_id, monitoringId };
}
