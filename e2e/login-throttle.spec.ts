import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./roles";

// Repeated wrong passwords for one email lock that email out for a while, right password
// included, with the same words whether the account exists or not. A user of its own is
// created here so that no other spec's demo login is locked out.

const WRONG = "That email and password do not match an active account.";
const THROTTLED = /^Too many attempts\. Try again in ([1-9]|1[0-5]) minutes?\.$/;

async function signIn(page: Page, email: string, password: string): Promise<string | null> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const alert = page.locator("form").getByRole("alert");
  await expect(alert.or(page.getByRole("banner"))).toBeVisible();
  return (await alert.isVisible()) ? await alert.textContent() : null;
}

test("five wrong passwords lock the email, the right one included, worded alike for unknown emails", async ({ browser }) => {
  test.setTimeout(90_000);
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
  await admin.close();

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  // The password works, and signing in right costs none of the tries.
  expect(await signIn(page, email, password)).toBeNull();
  await visitor.clearCookies();

  const known: Array<string | null> = [];
  const unknown: Array<string | null> = [];
  for (let attempt = 1; attempt <= 5; attempt++) {
    known.push(await signIn(page, email, `wrong-${attempt}`));
    unknown.push(await signIn(page, `nobody-${stamp}@example.com`, `wrong-${attempt}`));
  }
  expect(known.slice(0, 4)).toEqual([WRONG, WRONG, WRONG, WRONG]);
  expect(known[4]).toMatch(THROTTLED);
  // Same words (the minutes may tick over between the two).
  const words = (answers: Array<string | null>) => answers.map((answer) => answer?.replace(/\d+ minutes?/, "N minutes"));
  expect(words(unknown)).toEqual(words(known));

  // Locked: the right password is refused with the same words, and no session is made.
  expect(await signIn(page, email, password)).toMatch(THROTTLED);
  await page.goto("/my");
  await expect(page).toHaveURL(/\/login/);
  await visitor.close();
});
