import { request as httpRequest } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";

// Wrong passwords slow down the address they come from (for that account, and overall), never
// the account's owner from elsewhere: an attacker must not be able to lock anyone out. Linux
// routes all of 127.0.0.0/8 to the loopback, so the "attacker" here signs in over HTTP from
// 127.0.0.5 while the owner's browser connects from 127.0.0.1. A user of its own is created so
// that no other spec's demo login is slowed.

const WRONG = "That email and password do not match an active account.";

/** Signs in through next-auth's credentials endpoint from a chosen local address, as the form does: the error code, or null when signed in. */
async function signInFrom(
  localAddress: string,
  baseURL: string,
  email: string,
  password: string,
): Promise<string | null> {
  const call = (path: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
    new Promise<{ status: number; cookies: string[]; body: string }>((resolve, reject) => {
      const request = httpRequest(
        new URL(path, baseURL),
        { method: init.method, headers: init.headers, localAddress, agent: false },
        (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              cookies: (response.headers["set-cookie"] ?? []).map((c) => c.split(";")[0] ?? ""),
              body,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(init.body);
    });
  const csrf = await call("/api/auth/csrf", { method: "GET" });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const response = await call("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseURL}/pulls`, json: "true" }).toString(),
  });
  if (response.cookies.some((c) => c.includes("session-token="))) return null;
  const { url } = JSON.parse(response.body) as { url: string };
  return new URL(url).searchParams.get("error") ?? `status ${response.status}`;
}

async function signInInBrowser(page: Page, email: string, password: string): Promise<string | null> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const alert = page.locator("form").getByRole("alert");
  await expect(alert.or(page.getByRole("banner"))).toBeVisible();
  return (await alert.isVisible()) ? await alert.textContent() : null;
}

test("an attacker's wrong passwords slow the attacker, not the owner signing in from elsewhere", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const app = baseURL ?? "";
  const stamp = Date.now().toString(36);
  const email = `throttle-${stamp}@example.com`;
  const password = `throttle-pass-${stamp}`;

  const admin = await browser.newContext({ storageState: storageStateOf("admin") });
  const adminPage = await admin.newPage();
  await adminPage.goto("/admin/users");
  const create = adminPage.getByRole("form", { name: "Create a user" });
  await create.getByLabel("Name").fill("Throttle Test");
  await create.getByLabel("Email").fill(email);
  await create.getByLabel(/Password/).fill(password);
  await create.getByRole("button", { name: "Create user" }).click();
  await expect(adminPage.getByText(email).first()).toBeVisible();

  // The owner signs in once, from 127.0.0.6: the sign-in the next one is counted from.
  expect(await signInFrom("127.0.0.6", app, email, password)).toBeNull();

  // The attacker, from 127.0.0.5: two free failures, then a wait that doubles; during a wait even
  // the right password is not checked. An unknown email, from 127.0.0.7, is answered alike.
  const known: Array<string | null> = [];
  const unknown: Array<string | null> = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    known.push(await signInFrom("127.0.0.5", app, email, `wrong-${attempt}`));
    unknown.push(await signInFrom("127.0.0.7", app, `nobody-${stamp}@example.com`, `wrong-${attempt}`));
  }
  expect(known).toEqual(["CredentialsSignin", "CredentialsSignin", "THROTTLED:2"]);
  expect(unknown).toEqual(known);
  expect(await signInFrom("127.0.0.5", app, email, password)).toMatch(/^THROTTLED:[12]$/);

  // The owner, from the browser's own address, gets in at once with the right password, and is
  // told about the three failures, when and from where.
  const owner = await browser.newContext();
  const page = await owner.newPage();
  expect(await signInInBrowser(page, email, password)).toBeNull();
  const notice = page.getByTestId("failed-sign-ins");
  await expect(notice).toContainText("3 failed sign-in attempts on your account since your previous sign-in");
  await expect(notice.getByRole("listitem")).toHaveCount(3);
  await expect(notice.getByRole("listitem").first()).toContainText("from 127.0.0.5");
  await owner.close();

  // The login form words a wait in seconds.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const words: Array<string | null> = [];
  for (let attempt = 1; attempt <= 3; attempt++)
    words.push(await signInInBrowser(visitorPage, `nobody-else-${stamp}@example.com`, `wrong-${attempt}`));
  expect(words.slice(0, 2)).toEqual([WRONG, WRONG]);
  expect(words[2]).toMatch(/^Too many attempts\. Try again in [12] seconds?\.$/);
  await visitor.close();

  // Admins see the attempts, with their addresses.
  await adminPage.goto("/admin/users");
  const failed = adminPage.getByTestId("failed-sign-ins-table");
  await expect(failed.getByRole("row").filter({ hasText: email }).filter({ hasText: "127.0.0.5" })).toHaveCount(3);
  await adminPage.goto("/admin/audit?action=SIGN_IN_FAILED");
  await expect(adminPage.getByTestId("audit-entries")).toContainText(`Failed sign-in as ${email} from 127.0.0.5`);
  await admin.close();
});
