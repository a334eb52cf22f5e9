import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./roles";
import { SANDBOX_CONTROL } from "./sandbox-urls";

// The consumer request desk, as an admin works an erasure: find the consumer by email, open the
// request, erase (confirmed in a dialog), then record that the service was told. The consumer is
// a copy of the service's published example under a new id and email of its own, so the other
// specs' accounts are untouched.

const published = (
  JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as {
    pull: Record<string, unknown>;
  }
).pull;

test.use({ storageState: storageStateOf("admin") });

test("finds a consumer, opens an erasure request, erases them and records the service's copy", async ({
  page,
  request,
}) => {
  const pullId = randomUUID();
  const email = `erase-${pullId.slice(0, 8)}@example.com`;
  const reference = `E2E-${pullId.slice(0, 6)}`;
  const pull = { ...published, pull_id: pullId, account_email: email, email: null };
  expect((await request.post(`${SANDBOX_CONTROL}/pulls`, { data: pull })).ok()).toBe(true);
  expect((await request.post(`${SANDBOX_CONTROL}/deliver`, { data: { pull_ids: [pullId] } })).ok()).toBe(true);
  await expect(async () => {
    expect((await page.goto(`/pulls/${pullId}`))?.status()).toBe(200);
  }).toPass({ timeout: 30_000, intervals: [500] });

  await page.goto("/admin/privacy");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("consumer-pull")).toHaveCount(1);

  const open = page.getByTestId("open-request");
  await open.getByLabel("They ask for").selectOption("ERASURE");
  await open.getByLabel("Reference (optional)").fill(reference);
  await open.getByRole("button", { name: "Open the request" }).click();
  await expect(open.getByRole("status")).toContainText("Request opened");

  await page.goto("/admin/privacy");
  await page.getByRole("link", { name: new RegExp(reference) }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Erasure request");

  await page.getByTestId("erase-start").click();
  await page.getByRole("button", { name: "Erase everything" }).click();
  await expect(page.getByTestId("service-steps")).toContainText(pullId);
  expect((await page.request.get(`/pulls/${pullId}`)).status()).toBe(404);

  await page.getByLabel("The service has been asked to delete its copy, and has confirmed it.").check();
  await page.getByRole("button", { name: "Record" }).click();
  await expect(page.getByText(/The service was told on/)).toBeVisible();
});
