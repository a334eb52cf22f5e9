import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// Open-loop load: requests go out on a fixed schedule whatever the answers do, and latency is
// measured from the scheduled time, so a slow server cannot hide its queue (no coordinated
// omission).

export type LoadResult = { sent: number; ok: number; seconds: number; latenciesMs: number[] };

export async function openLoop(url: string, bodies: string[], ratePerSecond: number): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let ok = 0;
  const started = performance.now();
  const inFlight = bodies.map(async (body, i) => {
    const scheduled = started + (i * 1000) / ratePerSecond;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
    await response.arrayBuffer();
    latenciesMs.push(performance.now() - scheduled);
    if (response.status >= 200 && response.status < 300) ok++;
  });
  await Promise.all(inFlight);
  return { sent: bodies.length, ok, seconds: (performance.now() - started) / 1000, latenciesMs };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A bare HTTP endpoint that hands each body to `handle` and answers with its status. */
export async function serveBodies(
  handle: (body: string) => Promise<number>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(Buffer.concat(chunks).toString("utf8")).then(
        (status) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end("{}");
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
