import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";
import { SANDBOX_CONTROL, SERVICE_AUTH, TEAM_BASE } from "./sandbox-urls";

// The data-link service stops answering (the sandbox fails every call with a 500): the pull
// list and a pull's page keep showing what Coverdesk stored; once a call to the service has
// failed, every signed-in page says the service is not answering; when calls succeed again
// the notice goes away by itself, without a reload.

const NOTICE = "The data-link service is not answering; showing stored data. Changes will catch up when it returns.";

type ServicePull = {
  pull_id: string;
  status: string;
  type: string;
  parent_pull_id: string | null;
  is_archived: boolean;
  first_name: string | null;
  last_name: string | null;
  documents: Array<{ document_id: string }>;
};

let control: APIRequestContext;
let pull: ServicePull;

test.beforeAll(async () => {
  control = await playwrightRequest.newContext();
  const service = await playwrightRequest.newContext({ extraHTTPHeaders: { authorization: SERVICE_AUTH } });
  const response = await service.get(`${TEAM_BASE}/pulls?limit=100`);
  expect(response.ok()).toBe(true);
  const { pulls } = (await response.json()) as { pulls: ServicePull[] };
  const found = pulls.find(
    (p) =>
      p.status === "SUCCESS" &&
      p.type === "PULLING_DATA" &&
      p.parent_pull_id === null &&
      !p.is_archived &&
      p.documents.length > 0 &&
      p.first_name &&
      p.last_name &&
      !/[<>]/.test(`${p.first_name}${p.last_name}`),
  );
  if (!found) throw new Error("the sandbox has no plain successful pull with documents");
  pull = found;
  await service.dispose();
});

test.afterAll(async () => {
  await control.post(`${SANDBOX_CONTROL}/faults`, { data: { errorRate: 0 } });
  await control.dispose();
});

const setErrorRate = async (errorRate: number) =>
  expect((await control.post(`${SANDBOX_CONTROL}/faults`, { data: { errorRate } })).ok()).toBe(true);
const notice = (page: Page) => page.getByRole("complementary", { name: "Service status" });
const documentUrl = () => `/api/pulls/${pull.pull_id}/documents/${pull.documents[0]?.document_id}`;

test.describe("the service down", () => {
  test.use({ storageState: storageStateOf("manager") });
  test.describe.configure({ timeout: 120_000 });

  test("pages show stored data and say the service is not answering, until it answers again", async ({ page }) => {
    const name = pull.last_name ?? "";
    // Stored while the service was up (delivered by webhook when the e2e servers started).
    await expect(async () => {
      expect((await page.goto(`/pulls/${pull.pull_id}`))?.status()).toBe(200);
    }).toPass({ timeout: 60_000, intervals: [1_000] });
    // A call that succeeds first, so that no earlier failure explains what follows.
    expect((await page.request.get(documentUrl())).status()).toBe(200);
    await page.reload();
    await expect(notice(page)).toHaveCount(0);

    await setErrorRate(1);
    try {
      // Nothing on these pages waits on the service: both render from the database.
      expect((await page.goto(`/pulls?q=${encodeURIComponent(pull.last_name ?? "")}`))?.status()).toBe(200);
      await expect(page.locator(`main a[href="/pulls/${pull.pull_id}"]`)).toBeVisible();
      expect((await page.goto(`/pulls/${pull.pull_id}`))?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(name);

      // A call to the service fails: a document download (the worker's fetches would do too).
      expect((await page.request.get(documentUrl())).status()).toBe(502);
      await page.reload();
      await expect(notice(page)).toHaveText(NOTICE);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(name); // still the stored data
      await page.goto("/pulls");
      await expect(notice(page)).toHaveText(NOTICE); // on every signed-in page
    } finally {
      await setErrorRate(0);
    }

    // Calls succeed again: the open page drops the notice by itself (it asks every 10 s).
    expect((await page.request.get(documentUrl())).status()).toBe(200);
    await expect(notice(page)).toHaveCount(0, { timeout: 25_000 });
  });
});
