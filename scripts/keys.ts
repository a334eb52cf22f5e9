// `npm run keys -- status`: how many sealed values each key of COVERDESK_ENCRYPTION_KEYS holds, by
// column, and how many drivers' licence numbers and dates of birth are still in clear.
// `npm run keys -- rotate`: every sealed value (and any clear one) moved under the ring's first
// key, in batches with progress, then the ring's other keys recorded as retired: a value under
// one is refused from then on, and the app does not start with one first in the ring.
//
// On PostgreSQL it runs beside the app (as the owner, DATABASE_MIGRATION_URL, when set: only the
// owner may reseal the audit trail). The embedded database (PGlite) opens in one process only:
// stop `npm run dev` first.
import { parseArgs } from "node:util";
import { openDatabase, type Connection } from "@/db/connect";
import { env } from "@/lib/env";
import { currentKeyRing, setRetiredKeyIds } from "@/lib/security/key-ring";
import { countSealedValues, listRetiredKeyIds, rotateKeys } from "@/lib/security/sealed-columns";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";

installSealedJsonCodec();

const USAGE = "Usage: npm run keys -- status | rotate";

async function appAnswers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

async function open(): Promise<Connection> {
  const config = env();
  if (config.databaseUrl)
    return openDatabase({
      kind: "postgres",
      url: config.databaseMigrationUrl ?? config.databaseUrl,
      maxConnections: 2,
    });
  // PGlite: one process at a time; a second one on the same folder would damage it.
  if (await appAnswers(config.auth.url))
    throw new Error(
      `The app at ${config.auth.url} holds the embedded database (${config.pgliteDir}): stop \`npm run dev\` (Ctrl-C), then run the command again.`,
    );
  try {
    return await openDatabase({ kind: "pglite", dir: config.pgliteDir });
  } catch (error) {
    throw new Error(
      `The embedded database (${config.pgliteDir}) could not be opened; if \`npm run dev\` is running, stop it first. (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const command = positionals[0];
  if (command !== "status" && command !== "rotate") {
    console.error(USAGE);
    return 2;
  }
  const connection = await open();
  try {
    const db = connection.db;
    const retired = await listRetiredKeyIds(db);
    setRetiredKeyIds(retired);
    const ring = currentKeyRing();
    const ids = ring.keys.map((k) => k.id);
    if (command === "status") {
      const census = await countSealedValues(db);
      console.log(`Ring (COVERDESK_ENCRYPTION_KEYS): ${ids.join(", ")}; new values sealed under ${ids[0]}.`);
      console.log(`Retired: ${retired.length > 0 ? retired.join(", ") : "none"}.`);
      for (const [column, counts] of Object.entries(census.columns)) {
        const byKey = Object.entries(counts.byKey).map(([id, n]) => `${id}: ${n}`);
        if (byKey.length === 0 && counts.clear === 0) continue;
        console.log(`  ${column}: ${[...byKey, `clear: ${counts.clear}`].join(", ")}`);
      }
      const total = Object.entries(census.byKey).map(([id, n]) => `${id}: ${n}`);
      console.log(`Total: ${[...total, `clear: ${census.clear}`].join(", ")}.`);
      const stale = Object.keys(census.byKey).filter((id) => id !== ids[0]);
      if (census.clear > 0 || stale.length > 0)
        console.log("Run `npm run keys -- rotate` to move them under the first key.");
      return 0;
    }
    const primary = ids[0];
    if (primary && retired.includes(primary)) {
      console.error(`COVERDESK_ENCRYPTION_KEYS: its first key (${primary}) is retired; put a new key first.`);
      return 1;
    }
    console.log(
      `Rotating: every sealed value under ${primary}; then retiring ${ids.slice(1).join(", ") || "no other key"}.`,
    );
    const result = await rotateKeys(db, ring, (line) => console.log(`  ${line}`));
    console.log(
      `Done: ${result.rewritten} documents rewritten; retired ${result.retired.length > 0 ? result.retired.join(", ") : "none"}.`,
    );
    if (result.retired.length > 0)
      console.log(
        `Restart the app so it refuses them too, then remove ${result.retired.join(", ")} from COVERDESK_ENCRYPTION_KEYS.`,
      );
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
