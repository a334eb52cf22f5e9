import type { Sandbox } from "@/sandbox/server";

/** Sets the sandbox's fault injection through its control API, as the tests' service would see it. */
export async function setFaults(sandbox: Sandbox, faults: Record<string, number | boolean>): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: "POST",
    body: JSON.stringify(faults),
    headers: { "content-type": "application/json" },
  });
  if (!response.ok) throw new Error(`the sandbox refused the faults: ${response.status}`);
}
