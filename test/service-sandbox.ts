import type { Db } from "@/db/types";
import { storePull, type StoreOptions } from "@/lib/ingest/store-pull";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import type { SandboxPull } from "@/sandbox/data/pulls";
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

/** The first successful linked-account reading of the sandbox's seeded book: a template for pulls a test puts there. */
export function seededReading(sandbox: Sandbox): SandboxPull {
  const found = [...sandbox.state.pulls.values()].find(
    (p) => p.status === "SUCCESS" && p.type === "PULLING_DATA" && !p.parent_pull_id,
  );
  if (!found) throw new Error("the seeded book has no successful pull");
  return found;
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

/**
 * Links `username` (password pass_good) through the sandbox's flow and stores the pull once it
 * succeeded, as the worker does: the pull as served (no `account_identifier`, as the service's)
 * with what the sandbox's COMPLETE webhook about it carries (its account, its monitoring). Its id.
 */
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
      await storePull(db, payload, webhookClues(sandbox, pull_id));
      return pull_id;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("link did not succeed");
}

/** The storePull options the worker takes from the sandbox's webhooks about a pull (lib/ingest/process-events.ts). */
export function webhookClues(sandbox: Sandbox, pullId: string): StoreOptions {
  const pull = sandbox.state.pulls.get(pullId);
  if (!pull) throw new Error(`the sandbox has no pull ${pullId}`);
  const body = sandbox.context.webhookBody(pull, "COMPLETE", {}) as {
    account_identifier?: string | null;
    monitoring?: { initial_pull_id?: string };
  };
  return {
    webhookAccountIdentifier: body.account_identifier ?? null,
    initialPullId: body.monitoring?.initial_pull_id ?? null,
  };
}
