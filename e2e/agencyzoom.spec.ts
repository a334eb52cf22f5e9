import { expect, test, type APIRequestContext } from "@playwright/test";
import { listedPullPaths } from "./listed-pulls";
import { storageStateOf } from "./roles";

// The hand-off to AgencyZoom end to end, as an admin, against the stand-in playwright starts: the
// panel says what a lead needs and where each value comes from; Send creates one lead there;
// Send again updates that lead rather than making a second; the pull's history says so.

const AGENCYZOOM = `http://127.0.0.1:${Number(process.env.E2E_AGENCYZOOM_PORT ?? Number(process.env.E2E_SANDBOX_PORT ?? 4110) + 10)}`;

test.use({ storageState: storageStateOf("admin") });

async function leadCount(request: APIRequestContext): Promise<number> {
  return ((await (await request.get(`${AGENCYZOOM}/_sandbox/leads`)).json()) as { count: number }).count;
}

test("an admin sends a pull to AgencyZoom once as a new lead, then again as an update of it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const paths = await listedPullPaths(page, "status=SUCCESS&sort=name");
  // The first pull whose holder has an email (AgencyZoom requires one) and was not sent yet.
  let path: string | null = null;
  for (const candidate of paths.slice(0, 15)) {
    await page.goto(candidate);
    const panel = page.getByTestId("agencyzoom-panel");
    if (
      (await panel.getByTestId("agencyzoom-sent").count()) === 0 &&
      (await panel.getByRole("button", { name: "Send to AgencyZoom" }).isEnabled())
    ) {
      path = candidate;
      break;
    }
  }
  expect(path, "a listed pull ready to send").not.toBeNull();
  const panel = page.getByTestId("agencyzoom-panel");
  await expect(panel.getByTestId("agencyzoom-required")).toContainText("AgencyZoom needs");
  await expect(panel.getByTestId("agencyzoom-assignee")).toContainText("Assigned in AgencyZoom to");

  const before = await leadCount(request);
  await panel.getByRole("button", { name: "Send to AgencyZoom" }).click();
  const sent = panel.getByTestId("agencyzoom-sent");
  await expect(sent).toContainText("Sent");
  const link = panel.getByTestId("agencyzoom-lead-link");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  expect(await leadCount(request)).toBe(before + 1);

  await panel.getByRole("button", { name: "Send again (updates the lead)" }).click();
  await expect(sent).toContainText("(2 sends)");
  expect(await leadCount(request)).toBe(before + 1);

  await page.goto(path ?? "/pulls");
  const history = page.getByTestId("pull-history");
  await expect(history).toContainText(/sent the pull as a new lead to AgencyZoom \(lead \d+\)/);
  await expect(history).toContainText(/updated the lead in AgencyZoom \(lead \d+\)/);
});
