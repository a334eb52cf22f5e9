import { expect, test as setup } from "@playwright/test";
import { DEMO_PASSWORD, ROLES, storageStateOf, type RoleName } from "./roles";

// Logs in once per role through the real form and keeps the session for the other specs.
for (const role of Object.keys(ROLES) as RoleName[]) {
  setup(`log in as ${role}`, async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(ROLES[role].email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(role === "agent" ? /\/my$/ : /\/pulls$/);
    await expect(page.getByRole("banner").getByText(ROLES[role].name)).toBeVisible();
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
