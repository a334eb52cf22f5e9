import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { startServiceSandbox } from "@/test/service-sandbox";
import type { ServiceConfig } from "./client";
import { getPolicyFormDownloadUrl } from "./policy-forms-api";
import { iteratePulls } from "./pulls-api";

// Policy forms download as documents do: a 302 to a signed link that serves a PDF without
// credentials; an unknown form is 404 NOT_FOUND.

const TEAM = "ad5b6c7d-8091-4eab-8ccb-a09988776655";
let sandbox: Sandbox;
let service: ServiceConfig;

beforeAll(async () => {
  ({ sandbox, service } = await startServiceSandbox("pf", { teamId: TEAM, seed: 47, pullCount: 36 }));
});
afterAll(async () => {
  await sandbox?.close();
});

describe("policy forms contract", () => {
  it("turns a policy form into a signed URL that serves it as a PDF without credentials", async () => {
    let form: { id: string; name: string } | null = null;
    for await (const pull of iteratePulls(service)) {
      for (const policy of pull.policies) {
        const first = policy.forms_and_endorsements[0] as Record<string, unknown> | undefined;
        const id = first?.policy_form_id;
        if (typeof id === "string") form = { id, name: String(first?.form_name) };
      }
      if (form) break;
    }
    if (!form) throw new Error("no seeded policy form");
    const url = await getPolicyFormDownloadUrl(service, form.id);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/forms\/.+\.pdf\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect(new URL(url).origin).toBe(sandbox.storageUrl);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    const text = Buffer.from(await file.arrayBuffer()).toString("latin1");
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text).toContain(form.name);

    // Without the team prefix the service answers 404, as on every team route.
    await expect(getPolicyFormDownloadUrl({ ...service, teamId: null }, form.id)).rejects.toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    await expect(getPolicyFormDownloadUrl(service, crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
  });
});
