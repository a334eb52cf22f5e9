import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_CONTROL, SERVICE_AUTH, SERVICE_BASE, TEAM_ID } from "./sandbox-urls";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";

// The pull detail page, checked against what the sandbox service returned: for each line of
// business a pull that has it is read from the service over HTTP, and the page must show the
// values an agent needs (a VIN, a limit, a mortgagee, property data, a payout…); documents,
// uploads and policy forms must download as PDFs, relayed from the sandbox's separate storage
// server; hostile strings stay text; a phone's width does not make the
// page scroll sideways; axe finds no serious or critical violations.

const SERVICE = SERVICE_BASE;
const TEAM = TEAM_ID;
const BASIC = SERVICE_AUTH;

type Address = { full_address?: string | null };
type Coverage = {
  friendly_name: string | null;
  per_person_limit_cents: number | null;
  per_incident_limit_cents: number | null;
  is_declined: boolean;
};
type VehicleDriver = { first_name: string | null; last_name: string | null; is_excluded: boolean };
type Vehicle = { vin: string | null; hin: string | null; coverages: Coverage[]; drivers: VehicleDriver[] };
type Mortgagee = { name: string | null };
type PropertyData = { year_built: number | null; roof_cover: string | null };
type Dwelling = {
  address: Address | null;
  mortgagees: Mortgagee[];
  mortgagee_name: string | null;
  property_data: PropertyData | null;
  coverages: Array<{ per_incident_limit_cents: number | null; is_declined: boolean }>;
};
type Policy = {
  policy_type: string;
  carrier_policy_number: string | null;
  vehicles: Vehicle[];
  dwellings: Dwelling[];
  commercial_named_insureds: Array<{ name: string | null; fein: string | null }>;
  life: Record<string, unknown> | null;
  total_estimated_annual_premium_cents: number | null;
  forms_and_endorsements: Array<{ policy_form_id: string; form_name: string }>;
};
type FileUpload = { name: string; file_id: string };
type ServicePull = {
  pull_id: string;
  status: string;
  type: string;
  is_archived: boolean;
  parent_pull_id: string | null;
  first_name: string | null;
  last_name: string | null;
  policies: Policy[];
  claims: Array<{ payout_cents: number | null }>;
  documents: Array<{ document_id: string; title: string }>;
  loss_events: Array<{ amount_paid_cents: number | null }>;
  answers: Array<{
    fields: Array<{ consumer_flow_section_field_id: string; label: string; type: string; value: unknown }>;
  }>;
};

/** "$25,000" for whole dollars, "$1,234.56" otherwise: the page's own reading of cents. */
function dollars(cents: number): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}
const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
const humanized = (value: string) => {
  const words = value.toLowerCase().split("_").filter(Boolean).join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

let servicePulls: ServicePull[] = [];

test.beforeAll(async () => {
  const service = await playwrightRequest.newContext({ extraHTTPHeaders: { authorization: BASIC } });
  const response = await service.get(`${SERVICE}/teams/${TEAM}/pulls?limit=100`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { pulls: ServicePull[] };
  // Pulls the app shows as accounts: successful linked-account readings, top-level, not archived
  // (a servicing pull another spec made is shown under its request). The service lists them in
  // no stated order, so each pick is by what the pull holds alone.
  servicePulls = body.pulls.filter(
    (pull) =>
      pull.status === "SUCCESS" && pull.type === "PULLING_DATA" && pull.parent_pull_id === null && !pull.is_archived,
  );
  await service.dispose();
});

function pullWith(description: string, predicate: (pull: ServicePull) => boolean): ServicePull {
  const pull = servicePulls.find(predicate);
  if (!pull) throw new Error(`the sandbox has no pull with ${description}`);
  return pull;
}

const policiesOf = (pull: ServicePull, types: string[]) =>
  pull.policies.filter((policy) => types.includes(policy.policy_type));

/** Opens the pull's page, waiting for the app to have received it by webhook. */
async function openPull(page: Page, pullId: string): Promise<void> {
  await expect(async () => {
    const response = await page.goto(`/pulls/${pullId}`);
    expect(response?.status()).toBe(200);
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

async function expectPdf(page: Page, href: string | null): Promise<void> {
  expect(href).toBeTruthy();
  const response = await page.request.get(href ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toMatch(/^inline; filename="[^"]+\.pdf"$/);
  expect((await response.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
}

async function expectHomeShown(page: Page, pull: ServicePull, types: string[]): Promise<void> {
  const dwelling = policiesOf(pull, types).flatMap((policy) => policy.dwellings)[0];
  expect(dwelling).toBeDefined();
  const homes = page.locator("#homes");
  await expect(homes.getByRole("heading", { name: "Homes" })).toBeVisible();
  if (dwelling?.address?.full_address)
    await expect(homes.getByText(dwelling.address.full_address).first()).toBeVisible();
  const limit = dwelling?.coverages.find(
    (coverage) => !coverage.is_declined && coverage.per_incident_limit_cents !== null,
  )?.per_incident_limit_cents;
  if (limit !== null && limit !== undefined)
    await expect(
      homes
        .getByTestId("dwelling-coverage")
        .filter({ hasText: dollars(limit) })
        .first(),
    ).toBeVisible();
}

// As a manager, who sees every pull: agents see only theirs and the unassigned ones, and other
// specs may assign the sandbox's pulls.
test.describe("pull detail, as manager", () => {
  test.use({ storageState: storageStateOf("manager") });
  test.describe.configure({ timeout: 90_000 });

  test("auto: the VIN, a coverage limit and the vehicle's drivers", async ({ page }) => {
    const pull = pullWith("an auto policy with a liability limit", (p) =>
      policiesOf(p, ["AUTO"]).some((policy) =>
        policy.vehicles.some(
          (v) => v.vin && v.coverages.some((c) => !c.is_declined && c.per_person_limit_cents !== null),
        ),
      ),
    );
    const vehicle = policiesOf(pull, ["AUTO"])
      .flatMap((policy) => policy.vehicles)
      .find((v) => v.vin && v.coverages.some((c) => !c.is_declined && c.per_person_limit_cents !== null));
    const coverage = vehicle?.coverages.find((c) => !c.is_declined && c.per_person_limit_cents !== null);
    await openPull(page, pull.pull_id);
    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: /Vehicles/ })
      .click();
    await expect(page).toHaveURL(/#vehicles$/);
    const card = page.getByTestId("vehicle").filter({ hasText: vehicle?.vin ?? "" });
    await expect(card).toBeVisible();
    const row = card
      .getByTestId("vehicle-coverage")
      .filter({ hasText: coverage?.friendly_name ?? "" })
      .first();
    await expect(row).toContainText(dollars(coverage?.per_person_limit_cents ?? 0));
    await expect(card.getByTestId("vehicle-driver")).toHaveCount(vehicle?.drivers.length ?? 0);
  });

  test("auto: an excluded driver is marked on the vehicle", async ({ page }) => {
    const pull = pullWith("an excluded driver", (p) =>
      p.policies.some((policy) => policy.vehicles.some((v) => v.drivers.some((d) => d.is_excluded))),
    );
    const vehicle = pull.policies
      .flatMap((policy) => policy.vehicles)
      .find((v) => v.drivers.some((d) => d.is_excluded));
    const excluded = vehicle?.drivers.find((d) => d.is_excluded);
    await openPull(page, pull.pull_id);
    const row = page
      .getByTestId("vehicle")
      .filter({ hasText: vehicle?.vin ?? vehicle?.hin ?? "" })
      .getByTestId("vehicle-driver")
      .filter({ hasText: excluded?.first_name ?? "" });
    await expect(row.first()).toContainText("Excluded");
  });

  test("homeowners: a mortgagee, a coverage limit and property data", async ({ page }) => {
    const pull = pullWith("a homeowners policy with a mortgagee and property data", (p) =>
      policiesOf(p, ["HOMEOWNERS"]).some((policy) =>
        policy.dwellings.some(
          (d) =>
            (d.mortgagees.length > 0 || d.mortgagee_name) && d.property_data?.year_built && d.property_data.roof_cover,
        ),
      ),
    );
    const dwelling = policiesOf(pull, ["HOMEOWNERS"])
      .flatMap((policy) => policy.dwellings)
      .find(
        (d) =>
          (d.mortgagees.length > 0 || d.mortgagee_name) && d.property_data?.year_built && d.property_data.roof_cover,
      );
    await openPull(page, pull.pull_id);
    await expectHomeShown(page, pull, ["HOMEOWNERS"]);
    const card = page
      .getByTestId("dwelling")
      .filter({ hasText: dwelling?.address?.full_address ?? "" })
      .first();
    const mortgagee = dwelling?.mortgagees[0]?.name ?? dwelling?.mortgagee_name ?? "";
    await expect(card.getByTestId("mortgagee").first()).toContainText(mortgagee);
    const propertyData = card.getByTestId("property-data");
    await expect(propertyData.getByText("Year built").locator("..")).toContainText(
      String(dwelling?.property_data?.year_built),
    );
    await expect(propertyData.getByText("Roof cover", { exact: true }).locator("..")).toContainText(
      humanized(dwelling?.property_data?.roof_cover ?? ""),
    );
  });

  test("renters or condo: the home and its coverages", async ({ page }) => {
    const pull = pullWith("a renters or condo policy", (p) =>
      policiesOf(p, ["RENTERS", "CONDO"]).some((policy) => policy.dwellings.length > 0),
    );
    await openPull(page, pull.pull_id);
    await expectHomeShown(page, pull, ["RENTERS", "CONDO"]);
  });

  test("flood: the insured building", async ({ page }) => {
    const pull = pullWith("a flood policy", (p) =>
      policiesOf(p, ["FLOOD"]).some((policy) => policy.dwellings.length > 0),
    );
    await openPull(page, pull.pull_id);
    await expectHomeShown(page, pull, ["FLOOD"]);
    const flood = policiesOf(pull, ["FLOOD"])[0];
    await expect(
      page
        .getByTestId("policy")
        .filter({ hasText: flood?.carrier_policy_number ?? "" })
        .first(),
    ).toContainText("Flood");
  });

  test("landlord: the rental dwelling", async ({ page }) => {
    const pull = pullWith("a landlord policy", (p) =>
      policiesOf(p, ["LANDLORD"]).some((policy) => policy.dwellings.length > 0),
    );
    await openPull(page, pull.pull_id);
    await expectHomeShown(page, pull, ["LANDLORD"]);
  });

  test("commercial: the business, its loss events and workers' compensation premiums", async ({ page }) => {
    const pull = pullWith(
      "commercial policies",
      (p) => p.policies.some((policy) => policy.commercial_named_insureds.length > 0) && p.loss_events.length > 0,
    );
    const insured = pull.policies.flatMap((policy) => policy.commercial_named_insureds)[0];
    const paid = pull.loss_events.find((event) => (event.amount_paid_cents ?? 0) > 0)?.amount_paid_cents;
    const workersComp = pull.policies.find((policy) => policy.total_estimated_annual_premium_cents !== null);
    await openPull(page, pull.pull_id);
    const business = page.locator("#business");
    await expect(business.getByTestId("commercial-insured").first()).toContainText(insured?.name ?? "");
    await expect(business.getByTestId("commercial-insured").first()).toContainText(insured?.fein ?? "");
    if (paid)
      await expect(
        business
          .getByTestId("loss-event")
          .filter({ hasText: money(paid) })
          .first(),
      ).toBeVisible();
    if (workersComp)
      await expect(business.getByTestId("workers-comp").first()).toContainText(
        money(workersComp.total_estimated_annual_premium_cents ?? 0),
      );
    await expect(business.getByTestId("location").first()).toBeVisible();
  });

  test("life: the policy's life details", async ({ page }) => {
    const pull = pullWith("a life policy", (p) =>
      policiesOf(p, ["TERM_LIFE", "WHOLE_LIFE", "UNIVERSAL_LIFE"]).some((policy) => policy.life !== null),
    );
    const life =
      policiesOf(pull, ["TERM_LIFE", "WHOLE_LIFE", "UNIVERSAL_LIFE"]).find((policy) => policy.life !== null)?.life ??
      {};
    await openPull(page, pull.pull_id);
    const section = page.locator("#life");
    await expect(section.getByTestId("life").first()).toBeVisible();
    const face = life.face_amount_cents;
    if (typeof face === "number") await expect(section.getByTestId("life").first()).toContainText(money(face));
  });

  test("claims: the payout of a paid claim", async ({ page }) => {
    const pull = pullWith("a paid claim", (p) => p.claims.some((claim) => (claim.payout_cents ?? 0) > 0));
    const payout = pull.claims.find((claim) => (claim.payout_cents ?? 0) > 0)?.payout_cents ?? 0;
    await openPull(page, pull.pull_id);
    await expect(
      page
        .locator("#claims")
        .getByTestId("claim")
        .filter({ hasText: money(payout) })
        .first(),
    ).toBeVisible();
  });

  test("documents and uploaded files download as PDFs through the app", async ({ page }) => {
    const pull = pullWith(
      "documents and an uploaded file",
      (p) =>
        p.documents.length > 0 &&
        p.answers.some((s) =>
          s.fields.some((f) => f.type === "FILE_UPLOAD" && Array.isArray(f.value) && f.value.length > 0),
        ),
    );
    const document = pull.documents[0];
    const upload = pull.answers
      .flatMap((s) => s.fields)
      .find((f) => f.type === "FILE_UPLOAD" && Array.isArray(f.value) && f.value.length > 0);
    const file = (upload?.value as FileUpload[] | undefined)?.[0];
    await openPull(page, pull.pull_id);
    const link = page
      .locator("#documents")
      .getByTestId("document-link")
      .filter({ hasText: document?.title ?? "" })
      .first();
    await expect(link).toHaveAttribute("target", "_blank");
    await expectPdf(page, await link.getAttribute("href"));
    const fileLink = page
      .locator("#answers")
      .getByTestId("answer-file-link")
      .filter({ hasText: file?.name ?? "" })
      .first();
    await expectPdf(page, await fileLink.getAttribute("href"));
  });

  test("a policy's forms download as PDFs through the app", async ({ page }) => {
    const pull = pullWith("a policy form", (p) =>
      p.policies.some((policy) => policy.forms_and_endorsements.length > 0),
    );
    const form = pull.policies.flatMap((policy) => policy.forms_and_endorsements)[0];
    await openPull(page, pull.pull_id);
    const link = page
      .locator("#policies")
      .getByTestId("policy-form-link")
      .filter({ hasText: form?.form_name ?? "" })
      .first();
    await expect(link).toHaveAttribute("href", `/api/pulls/${pull.pull_id}/policy-forms/${form?.policy_form_id}`);
    await expectPdf(page, await link.getAttribute("href"));
  });

  test("a download of another pull's document, or of an unknown one, is a 404", async ({ page }) => {
    const [first, second] = servicePulls.filter((p) => p.documents.length > 0);
    const unknown = await page.request.get(
      `/api/pulls/${first?.pull_id}/documents/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "NOT_FOUND" });
    const crossed = await page.request.get(
      `/api/pulls/${first?.pull_id}/documents/${second?.documents[0]?.document_id}`,
    );
    expect(crossed.status()).toBe(404);
  });

  test("a service failure during a download answers 502 and names no credential", async ({ page }) => {
    const pull = pullWith("documents", (p) => p.documents.length > 0);
    await openPull(page, pull.pull_id);
    const control = await playwrightRequest.newContext();
    await control.post(`${SANDBOX_CONTROL}/faults`, { data: { errorRate: 1 } });
    try {
      const response = await page.request.get(`/api/pulls/${pull.pull_id}/documents/${pull.documents[0]?.document_id}`);
      expect(response.status()).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: "SERVICE_ERROR" });
      expect(text).not.toMatch(/coverdesk-e2e-(secret|client)|Basic /);
    } finally {
      await control.post(`${SANDBOX_CONTROL}/faults`, { data: { errorRate: 0 } });
      await control.dispose();
    }
  });

  test("hostile strings from the service render as text", async ({ page }) => {
    const pull = pullWith("a hostile name", (p) => (p.first_name ?? "").includes("<script>"));
    page.on("dialog", (dialog) => {
      throw new Error(`a script ran: ${dialog.message()}`);
    });
    await openPull(page, pull.pull_id);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(pull.first_name ?? "");
    await expect(page.getByRole("heading", { level: 1 })).toContainText(pull.last_name ?? "");
    expect(await page.locator("main script, main img[src='x']").count()).toBe(0);
    const hostileDocument = pull.documents.find((document) => document.title.includes("<b>"));
    if (hostileDocument) {
      const link = page.getByTestId("document-link").filter({ hasText: hostileDocument.title });
      await expect(link).toHaveCount(1);
      const response = await page.request.get((await link.getAttribute("href")) ?? "");
      expect(response.status()).toBe(200);
      // The title reaches the header only as safe characters.
      expect(response.headers()["content-disposition"]).toMatch(/^inline; filename="[A-Za-z0-9 ._()-]+\.pdf"$/);
    }
  });

  test("keyboard: Tab reaches the table of contents, Enter jumps to the section, tables scroll from the keyboard", async ({
    page,
  }) => {
    const pull = pullWith("documents", (p) => p.documents.length > 0 && p.policies.length > 0);
    await openPull(page, pull.pull_id);
    let inContents = false;
    for (let presses = 0; presses < 40 && !inContents; presses++) {
      await page.keyboard.press("Tab");
      inContents = await page.evaluate(
        () => document.activeElement?.closest('nav[aria-label="On this page"]') !== null,
      );
    }
    expect(inContents).toBe(true);
    const documentsLink = page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: /Documents/ });
    await documentsLink.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#documents$/);
    const scroller = page.locator("#documents").getByRole("region", { name: "Documents" });
    await scroller.focus();
    await expect(scroller).toBeFocused();
  });

  test("at phone width the page does not scroll sideways, and the table of contents wraps", async ({ page }) => {
    const pull = pullWith("a commercial account", (p) =>
      p.policies.some((policy) => policy.commercial_named_insureds.length > 0),
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await openPull(page, pull.pull_id);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole("navigation", { name: "On this page" })).toBeVisible();
  });

  test("the list and the detail page have no serious or critical accessibility violations", async ({ page }) => {
    const pull = pullWith(
      "a home and auto account",
      (p) =>
        p.policies.some((policy) => policy.vehicles.length > 0) &&
        p.policies.some((policy) => policy.dwellings.length > 0),
    );
    await openPull(page, pull.pull_id);
    const serious = async () =>
      (await new AxeBuilder({ page }).analyze()).violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
    expect(await serious()).toEqual([]);
    await page.goto("/pulls");
    await expect(page.getByTestId("pull-row").first()).toBeVisible();
    expect(await serious()).toEqual([]);
  });
});
