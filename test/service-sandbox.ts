import type { Db } from "@/db/types";
import { storePull } from "@/lib/pulls/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { startSandbox, type Sandbox, type SandboxOptions } from "@/sandbox/server";

/**
 * A sandbox on a free port, and the client's configuration for it: the contract tests' usual
 * pair. Credentials are named after the test; anything else of the sandbox's can be given.
 */
export async function startServiceSandbox(
  name: string,
  options: Partial<SandboxOptions> & Pick<SandboxOptions, "teamId" | "seed">,
): Promise<{ sandbox: Sandbox; service: ServiceConfig & { teamId: string } }> {
  const clientId = name;
  const clientSecret = `${name}-secret`;
  const sandbox = await startSandbox({
    port: 0,
    clientId,
    clientSecret,
    webhookUrl: null,
    webhookSecret: null,
    pullCount: 12,
    speed: 0.0005,
    deliverOnStart: false,
    ...options,
  });
  return {
    sandbox,
    service: {
      baseUrl: sandbox.baseUrl,
      teamId: options.teamId,
      clientId,
      clientSecret,
      timeoutMs: 2_000,
      retryBaseMs: 1,
    },
  };
}

/** A call to the sandbox's control API (`/_sandbox/…`, not part of the service); its JSON answer. */
export async function controlSandbox(sandbox: Sandbox, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Links `username` (password pass_good) through the sandbox's flow and stores the pull once it succeeded; its id. */
export async function linkStoredAccount(
  db: Db,
  sandbox: Sandbox,
  service: ServiceConfig,
  username: string,
): Promise<string> {
  const { pull_id } = (await controlSandbox(sandbox, "links", { username, password: "pass_good" })) as {
    pull_id: string;
  };
  for (let i = 0; i < 300; i++) {
    const payload = (await fetchPullPayload(service, pull_id)) as { pull: { status: string } };
    if (payload.pull.status === "SUCCESS") {
      await storePull(db, payload);
      return pull_id;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("link did not succeed");
}
