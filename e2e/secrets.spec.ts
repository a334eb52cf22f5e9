import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page, type Response } from "@playwright/test";
import { DEMO_PASSWORD, ROLES, type RoleName } from "./roles";
import { SECRETS, SERVICE_ENV } from "./server-env";

// The browser never receives the service's client secret, the webhook signing secret or the key
// that signs sessions: not in the JavaScript the build ships, not in any page, payload or header
// the running app sends to a signed-in user of any role.

/** Every way a secret could travel: as is, URL-encoded, base64 (alone or as Basic credentials). */
function disguises(secret: string): string[] {
  const base64 = (text: string) => Buffer.from(text).toString("base64");
  return [secret, encodeURIComponent(secret), base64(secret), base64(`${SERVICE_ENV.SERVICE_CLIENT_ID}:${secret}`)];
}

const NEEDLES = Object.entries(SECRETS).flatMap(([name, secret]) =>
  disguises(secret).map((needle) => ({ name, needle })),
);

/** Names of the secrets found in a text; empty when it is clean. */
function secretsIn(text: string): string[] {
  return [...new Set(NEEDLES.filter(({ needle }) => text.includes(needle)).map(({ name }) => name))];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test("the secrets are distinctive enough to be looked for", () => {
  for (const [name, secret] of Object.entries(SECRETS)) expect(secret.length, name).toBeGreaterThanOrEqual(16);
  // The scan itself finds a planted secret, or a clean result would prove nothing.
  expect(
    secretsIn(
      `var a="${Buffer.from(`${SERVICE_ENV.SERVICE_CLIENT_ID}:${SECRETS.SERVICE_CLIENT_SECRET}`).toString("base64")}"`,
    ),
  ).toEqual(["SERVICE_CLIENT_SECRET"]);
});

test("no file the build ships to browsers contains a secret", () => {
  const files = filesUnder(path.join(process.cwd(), ".next", "static"));
  expect(files.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(5);
  const leaks = files.flatMap((file) =>
    secretsIn(readFileSync(file, "latin1")).map((name) => `${name} in ${path.relative(process.cwd(), file)}`),
  );
  expect(leaks).toEqual([]);
});

/** Records every response the page receives (documents, RSC payloads, chunks, API calls). */
function recordResponses(page: Page): () => Promise<string[]> {
  const checks: Array<Promise<string[]>> = [];
  page.on("response", (response: Response) => {
    checks.push(
      (async () => {
        const headers = (await response.headersArray()).map(({ name, value }) => `${name}: ${value}`).join("\n");
        const body =
          response.status() >= 300 && response.status() < 400
            ? ""
            : await response.body().then(
                (b) => b.toString("latin1"),
                () => "",
              );
        return secretsIn(`${headers}\n${body}`).map(
          (name) =>
            `${name} in ${response.request().method()} ${new URL(response.url()).pathname} (${response.status()})`,
        );
      })(),
    );
  });
  return async () => (await Promise.all(checks)).flat();
}

const PAGES: Record<RoleName, string[]> = {
  admin: [
    "/pulls",
    "/my",
    "/reconnect",
    "/reports",
    "/events",
    "/admin/users",
    "/admin/assignment",
    "/admin/audit",
    "/xdates",
    "/alerts",
    "/admin/rules",
  ],
  manager: ["/pulls", "/my", "/reconnect", "/reports", "/xdates", "/alerts"],
  agent: ["/my", "/pulls", "/reconnect", "/xdates", "/alerts"],
};
const API_READS = [
  "/api/auth/session",
  "/api/auth/csrf",
  "/api/auth/providers",
  "/api/health",
  "/api/pulls/csv",
  "/api/reports/csv?table=byAgent",
  "/api/xdates/csv",
];

for (const role of Object.keys(ROLES) as RoleName[]) {
  test(`as ${role}: no response of the main pages carries a secret`, async ({ page }) => {
    test.setTimeout(120_000);
    const leaks = recordResponses(page);

    // The public reconnect page (here with a token that opens nothing) and the login page.
    await page.goto("/connect/not-a-real-token");
    await page.goto("/login");
    await page.getByLabel("Email").fill(ROLES[role].email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(role === "agent" ? /\/my$/ : /\/pulls$/);

    for (const address of PAGES[role]) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(200);
      await page.waitForLoadState("networkidle");
    }
    // A pull's page, reached by a click so that the client-side navigation payload is seen too.
    await page.goto("/pulls");
    await expect(page.getByTestId("pull-row").first()).toBeVisible({ timeout: 60_000 });
    await page.getByTestId("pull-row").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/pulls\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    const pullId = new URL(page.url()).pathname.split("/").pop();
    const found = await leaks();

    // Route handlers, with this user's session: next-auth's JSON, exports, the pull's version probe.
    for (const address of [...API_READS, `/api/pulls/${pullId}/version`]) {
      const response = await page.request.get(address);
      const headers = response
        .headersArray()
        .map(({ name, value }) => `${name}: ${value}`)
        .join("\n");
      found.push(
        ...secretsIn(`${headers}\n${(await response.body()).toString("latin1")}`).map(
          (name) => `${name} in GET ${address} (${response.status()})`,
        ),
      );
    }
    expect(found).toEqual([]);
  });
}
