import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";

// Every page and route carries the security headers, pages a script policy with a fresh nonce;
// and the app still works under that policy: no violation while the list and a pull are used.

function expectCommonHeaders(headers: Record<string, string>, where: string) {
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["permissions-policy"], where).toContain("camera=()");
  // The e2e server is a production build: HSTS is on (browsers ignore it over plain http).
  expect(headers["strict-transport-security"], where).toMatch(/^max-age=\d+/);
  expect(headers["content-security-policy"], where).toContain("frame-ancestors 'none'");
}

const nonceOf = (policy: string | undefined) => /script-src [^;]*'nonce-([^']+)'/.exec(policy ?? "")?.[1];

function expectPagePolicy(response: APIResponse | null, where: string) {
  const headers = response?.headers() ?? {};
  expectCommonHeaders(headers, where);
  expect(headers["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
  const policy = headers["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'(;|$)/);
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).toContain("object-src 'none'");
  return nonceOf(policy);
}

test.describe("headers", () => {
  test("the login page, without a session", async ({ request }) => {
    const response = await request.get("/login");
    expect(response.status()).toBe(200);
    const nonce = expectPagePolicy(response, "/login");
    // Next.js put this response's nonce on its scripts.
    expect(await response.text()).toContain(`nonce="${nonce}"`);
    const again = await request.get("/login");
    expect(nonceOf(again.headers()["content-security-policy"])).not.toBe(nonce);
  });

  test("a page, the redirect to sign in, an unknown address and a consumer's reconnect page", async ({ request }) => {
    const redirect = await request.get("/pulls", { maxRedirects: 0 });
    expect(redirect.status()).toBe(307);
    expectCommonHeaders(redirect.headers(), "redirect");
    const connect = await request.get("/connect/some-token-in-the-address");
    expectCommonHeaders(connect.headers(), "/connect/…");
    // That address carries a secret: no page it links to may learn it.
    expect(connect.headers()["referrer-policy"]).toBe("no-referrer");
    // A path is not a static file because it ends in ".png" or ".txt": the proxy still secures it.
    for (const path of ["/connect/some-token.png", "/pulls/report.txt"])
      expectCommonHeaders((await request.get(path, { maxRedirects: 0 })).headers(), path);
  });

  test("API routes, with and without a session, and Next's static files", async ({ browser, request }) => {
    const health = await request.get("/api/health");
    expectCommonHeaders(health.headers(), "/api/health");
    expect(health.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(health.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    const refused = await request.get("/api/pulls/csv");
    expect(refused.status()).toBe(401);
    expectCommonHeaders(refused.headers(), "401");

    const context = await browser.newContext({ storageState: storageStateOf("manager") });
    const csv = await context.request.get("/api/pulls/csv");
    expect(csv.status()).toBe(200);
    expectCommonHeaders(csv.headers(), "/api/pulls/csv");
    // Relayed documents keep only the framing rule, so the browser's PDF viewer can draw them.
    const document = await context.request.get("/api/pulls/6a1f2e3d-4c5b-4a69-8788-99aabbccddee/documents/none");
    expect(document.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
    expect(document.headers()["x-frame-options"]).toBe("DENY");
    const html = await (await context.request.get("/pulls")).text();
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await context.request.get(script ?? "");
    expect(asset.status()).toBe(200);
    expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    await context.close();
  });

  test("the session cookie is not readable by scripts and not sent cross-site", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateOf("agent") });
    const cookie = (await context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await context.close();
  });
});

/** Collects policy violations and script errors as the page reports them. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async () => [
    ...problems,
    ...(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? [])),
  ];
}

test.describe("the app under its policy", () => {
  test.use({ storageState: storageStateOf("manager") });

  test("the list and a pull's page work with no policy violation", async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto("/pulls");
    await expect(page.getByTestId("pull-row").first()).toBeVisible({ timeout: 60_000 });
    await page.getByRole("searchbox", { name: "Search" }).fill("a");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/[?&]q=a/);
    await expect(page.getByTestId("pull-row").first()).toBeVisible();
    // The scripts ran: following a link is a client-side navigation, the window survives it.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await page.getByTestId("pull-row").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/pulls\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Policies" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Policies" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await violations()).toEqual([]);
  });

  test("an unknown address renders its page with no policy violation", async ({ page }) => {
    const violations = await watchViolations(page);
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Back to linked accounts" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await violations()).toEqual([]);
  });
});
