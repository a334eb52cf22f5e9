import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { storageStateOf } from "./roles";

// Another system registers a webhook endpoint with its key, on a receiver that verifies every
// delivery with the Standard Webhooks reference library and answers 500 to the first; a pull
// moved to WON through the API arrives, verified, on the retry. The admin sees the delivery.

test.describe("outgoing webhooks, as admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("delivers a verified pull.stage_changed after a failed first attempt", async ({ page, playwright, baseURL }) => {
    test.setTimeout(90_000);
    const name = `E2E hooks ${randomUUID().slice(0, 8)}`;
    await page.goto("/admin/api-keys");
    const form = page.getByRole("form", { name: "Make an API key" });
    await form.getByLabel("Name (the system that will use it)").fill(name);
    await form.getByRole("checkbox", { name: /pulls:write/ }).check();
    await form.getByRole("checkbox", { name: /webhooks:write/ }).check();
    await form.getByRole("button", { name: "Make key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent()) ?? "";
    expect(key).toMatch(/^cdk_/);

    const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
    let failuresLeft = 1;
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
        response.writeHead(failuresLeft-- > 0 ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const api = await playwright.request.newContext({
      baseURL,
      storageState: { cookies: [], origins: [] },
      extraHTTPHeaders: { authorization: `Bearer ${key}` },
    });
    try {
      const made = await api.post("/api/v1/webhook-endpoints", { data: { url, events: ["pull.stage_changed"] } });
      expect(made.status()).toBe(201);
      const { secret } = (await made.json()) as { secret: string };
      expect(secret).toMatch(/^whsec_/);

      const list = await api.get("/api/v1/pulls?limit=100");
      const { data } = (await list.json()) as { data: Array<{ pull_id: string; stage: string; status: string }> };
      const working = data.find((pull) => pull.stage === "WORKING" && pull.status === "SUCCESS");
      expect(working).toBeDefined();
      const pullId = working?.pull_id ?? "";
      const won = await api.patch(`/api/v1/pulls/${pullId}`, { data: { stage: "WON", premium_cents: 99900 } });
      expect(won.status()).toBe(200);

      const verified = () =>
        received
          .map((delivery) => {
            try {
              return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
                type: string;
                data: { pull_id: string; to_stage: string };
              };
            } catch {
              return null;
            }
          })
          .filter((event) => event?.type === "pull.stage_changed" && event.data.pull_id === pullId);
      await expect.poll(() => verified().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      expect(verified()[0]?.data.to_stage).toBe("WON");

      await page.goto("/admin/webhooks");
      const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url });
      await expect(endpoint.getByTestId("webhook-delivery-row").first()).toContainText("DELIVERED");
    } finally {
      await api.dispose();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
