// `npm run demo:reset`: empties the development database so that the demo agency's history is
// built again, then starts `npm run dev`, which builds it (`--no-start` to only empty it).
// The embedded database (PGlite) opens in one process only: while `npm run dev` holds it, it
// cannot be touched, so this refuses while the app or the sandbox answers.
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

const env = process.env;
if (env.NODE_ENV === "production") {
  console.error("demo:reset: refused in production (NODE_ENV=production).");
  process.exit(1);
}
const appUrl = env.NEXTAUTH_URL || "http://localhost:3000";
const sandboxUrl = `http://localhost:${env.SANDBOX_PORT || 4010}`;

async function answers(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

const running = [];
if (await answers(`${appUrl}/api/health`)) running.push(`the app at ${appUrl}`);
if (await answers(`${sandboxUrl}/api/v1.0.0/health`)) running.push(`the sandbox at ${sandboxUrl}`);
if (running.length > 0) {
  console.error(
    `demo:reset: ${running.join(" and ")} ${running.length > 1 ? "are" : "is"} running. Stop \`npm run dev\` (Ctrl-C) first, then run \`npm run demo:reset\` again.`,
  );
  process.exit(1);
}

if (env.DATABASE_URL) {
  // PostgreSQL: every table emptied, the migrations kept (TRUNCATE passes the audit trail's
  // row triggers, which refuse only UPDATE and DELETE).
  const sql = postgres(env.DATABASE_MIGRATION_URL || env.DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql`select tablename from pg_tables where schemaname = 'public'`;
    if (tables.length > 0) {
      const names = tables.map((t) => `"public"."${t.tablename.replaceAll('"', '""')}"`).join(", ");
      await sql.unsafe(`truncate ${names} restart identity cascade`);
    }
    console.info(`demo:reset: emptied ${tables.length} tables of ${new URL(env.DATABASE_URL).pathname.slice(1)}.`);
  } finally {
    await sql.end();
  }
} else {
  const dir = path.resolve(env.PGLITE_DIR || ".data/pglite");
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  console.info(`demo:reset: removed the embedded database (${path.relative(process.cwd(), dir) || dir}).`);
}

if (process.argv.includes("--no-start")) {
  console.info("demo:reset: `npm run dev` builds the demo agency's history again at its next start.");
  process.exit(0);
}
console.info("demo:reset: starting `npm run dev`; the demo agency's history builds in the background.");
const dev = spawn(process.execPath, ["scripts/dev.mjs"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
