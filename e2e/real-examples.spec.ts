import { readFileSync, readdirSync } from "node:fs";
import { SANDBOX_CONTROL } from "./sandbox-urls";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";

// The real service's published example pulls, served by the sandbox exactly as published and
// announced by webhook: the app must store them and show what an agent needs.

const CONTROL = SANDBOX_CONTROL;
const FIXTURES = path.join(process.cwd(), "lib/service/fixtures/real/pulls");

type Example = {
  pull_id: string;
  first_name: string;
  last_name: string;
  policies: Array<{
    carrier_policy_number: string | null;
    vehicles?: Array<{ vin: string | null }>;
    dwellings?: Array<{ address?: { full_address?: string | null } | null }>;
  }>;
};

const examples = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".json"))
  .map((file) => {
    const body = JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8")) as { pull?: Example } & Partial<Example>;
    return { file, pull: (body.pull ?? body) as Example };
  });

test.use({ storageState: storageStateOf("manager") });

for (const { file, pull } of examples) {
  test(`shows the published example ${file}`, async ({ page, request }) => {
    expect((await request.post(`${CONTROL}/pulls`, { data: pull })).ok()).toBe(true);
    expect((await request.post(`${CONTROL}/deliver`, { data: { pull_ids: [pull.pull_id] } })).ok()).toBe(true);

    await expect(async () => {
      const response = await page.goto(`/pulls/${pull.pull_id}`);
      expect(response?.status()).toBe(200);
    }).toPass({ timeout: 30_000, intervals: [500] });

    const main = page.locator("main");
    await expect(page.getByRole("heading", { level: 1 })).toContainText(pull.last_name);
    for (const policy of pull.policies) {
      if (policy.carrier_policy_number)
        await expect(main.getByText(policy.carrier_policy_number, { exact: false }).first()).toBeVisible();
      for (const vehicle of policy.vehicles ?? [])
        if (vehicle.vin) await expect(main.getByText(vehicle.vin).first()).toBeVisible();
      for (const dwelling of policy.dwellings ?? []) {
        const street = dwelling.address?.full_address?.split(",")[0];
        if (street) await expect(main.getByText(street, { exact: false }).first()).toBeVisible();
      }
    }
  });
}
