// One worker process of the ingest benchmark: the app's worker loop (lib/ingest/worker-loop.ts)
// on its own connection pool, fetching from the sandbox over HTTP, as `npm run worker` runs it.
// Usage: ingest-worker.ts <database url> <service base url> <worker id>. Stops on SIGTERM,
// giving back what it holds, and prints its loop's counters as JSON.
import { openDatabase } from "@/db/connect";
import { runWorkerLoop } from "@/lib/ingest/worker-loop";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import { BENCH_TEAM } from "./ingest-setup";

installSealedJsonCodec();

const [url, baseUrl, workerId] = process.argv.slice(2);
if (!url || !baseUrl || !workerId) {
  console.error("usage: ingest-worker.ts <database url> <service base url> <worker id>");
  process.exit(2);
}
const service = {
  baseUrl,
  teamId: BENCH_TEAM,
  clientId: "bench",
  clientSecret: "bench-secret",
  timeoutMs: 5_000,
  maxWaitMs: 1_000,
};

async function main() {
  const connection = await openDatabase({ kind: "postgres", url: url as string });
  const loop = runWorkerLoop({
    workerId: workerId as string,
    getDb: async () => connection.db,
    fetchPull: (pullId) => fetchPullPayload(service, pullId),
    pollIntervalMs: Number(process.env.BENCH_POLL_MS ?? 250),
    log: process.env.BENCH_VERBOSE ? (line) => process.stderr.write(`[${workerId}] ${line}\n`) : undefined,
  });
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  const stopped = await loop.stop(5_000);
  await connection.close();
  process.stdout.write(`${JSON.stringify({ ...stopped, failedCycles: loop.failedCycles })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
