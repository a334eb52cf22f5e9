import { expect, type Page } from "@playwright/test";

/**
 * The addresses of the pull list's rows for `query` (waiting until the list has any: the
 * sandbox's book arrives by webhook), each once, in the list's order.
 */
export async function listedPullPaths(page: Page, query: string): Promise<string[]> {
  await expect(async () => {
    await page.goto(`/pulls?${query}`);
    expect(await page.getByTestId("pull-row").count()).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  const links = await page
    .getByTestId("pull-row")
    .getByRole("link")
    .evaluateAll((anchors) =>
      anchors.map((a) => a.getAttribute("href") ?? "").filter((href) => /^\/pulls\/[0-9a-f-]{36}$/.test(href)),
    );
  return [...new Set(links)];
}
