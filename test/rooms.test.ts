import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The rooms of eslint.config.mjs (which folder may import which) are only worth something while
// they report: a renamed plugin, a resolver that stops resolving `@/`, or a glob that no longer
// matches would silence them without failing anything. Each case lints a small module as if it
// lived in a folder, and checks whether an import across rooms (or a read of process.env outside
// lib/env.ts) is reported.

const ROOT = path.resolve(__dirname, "..");
const ROOM_RULES = new Set([
  "import/no-restricted-paths",
  "@typescript-eslint/no-restricted-imports",
  "no-restricted-properties",
]);

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The room-rule messages for `code` linted as the file `filePath`. */
async function roomProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && ROOM_RULES.has(m.ruleId)).map((m) => m.message);
}

const refused: Array<[string, string, string]> = [
  [
    "a component importing a server action from app/",
    "components/probe/probe.tsx",
    `import { setStageAction } from "@/app/(app)/pulls/actions";`,
  ],
  ["a component importing db/ values", "components/probe/probe.tsx", `import { pulls } from "@/db/schema";`],
  [
    "a component importing db/ by a relative path",
    "components/probe/probe.tsx",
    `import { pulls } from "../../db/schema";`,
  ],
  ["a component importing drizzle-orm", "components/probe/probe.tsx", `import { eq } from "drizzle-orm";`],
  ["a component importing postgres", "components/probe/probe.tsx", `import postgres from "postgres";`],
  ["a route importing drizzle-orm", "app/api/probe/route.ts", `import { sql } from "drizzle-orm";`],
  ["a route importing db/schema", "app/api/probe/route.ts", `import { pulls } from "@/db/schema";`],
  ["a route importing db/connect", "app/api/probe/route.ts", `import { queryRows } from "@/db/connect";`],
  ["lib/service importing another lib/ module", "lib/service/probe.ts", `import { getDb } from "@/lib/database";`],
  ["lib/service importing db/", "lib/service/probe.ts", `import type { Db } from "@/db/types";`],
  ["lib/ importing a component", "lib/pulls/probe.ts", `import { Badge } from "@/components/ui/badge";`],
  ["lib/ importing app/ by a relative path", "lib/pulls/probe.ts", `import { GET } from "../../app/api/health/route";`],
  ["db/ importing lib/", "db/probe.ts", `import { env } from "@/lib/env";`],
  ["lib/ importing the sandbox", "lib/ingest/probe.ts", `import { startSandbox } from "@/sandbox/server";`],
  ["app/ importing the sandbox", "app/api/probe/route.ts", `import { generatePulls } from "@/sandbox/data/pulls";`],
  [
    "the sandbox importing the service client",
    "sandbox/probe.ts",
    `import { backoffDelay } from "@/lib/service/client";`,
  ],
  ["the sandbox importing db/", "sandbox/routes/probe.ts", `import { pulls } from "@/db/schema";`],
  ["lib/ reading process.env", "lib/pulls/probe.ts", `export const url = process.env.DATABASE_URL;`],
  ["db/ reading process.env", "db/probe.ts", `export const url = process.env.DATABASE_URL;`],
  // The floors inside lib/: base, domains, compositions.
  ["the base importing a domain", "lib/core/probe.ts", `import { listPulls } from "@/lib/pulls/queries";`],
  ["lib/auth importing lib/users", "lib/auth/probe.ts", `import { listAllUsers } from "@/lib/users/queries";`],
  [
    "the base importing a domain by a relative path",
    "lib/audit/probe.ts",
    `import { funnelCounts } from "../workflow/funnel";`,
  ],
  ["the base importing a loader", "lib/security/probe.ts", `import { loadPullPage } from "@/lib/loaders/pull-page";`],
  ["a domain importing a loader", "lib/pulls/probe.ts", `import { loadPullPage } from "@/lib/loaders/pull-page";`],
  ["a domain importing ingest", "lib/workflow/probe.ts", `import { storePull } from "@/lib/ingest/store-pull";`],
  ["a domain importing the start-up", "lib/xdates/probe.ts", `import { startServer } from "@/lib/startup";`],
  ["a domain importing the job runner", "lib/alerts/probe.ts", `import { startJobs } from "@/lib/jobs/start";`],
  ["a domain importing the demo agency", "lib/reports/probe.ts", `import { DEMO_PLAN } from "../demo/plan";`],
  [
    "a new domain folder importing a loader",
    "lib/new-domain/probe.ts",
    `import { loadUsersPage } from "@/lib/loaders/users";`,
  ],
];

const allowed: Array<[string, string, string]> = [
  [
    "a component importing a db/ type",
    "components/probe/probe.tsx",
    `import type { AuditEventRow } from "@/db/schema";`,
  ],
  ["a component importing lib/", "components/probe/probe.tsx", `import { formatCents } from "@/lib/format";`],
  [
    "a route importing lib/database and db/client",
    "app/api/probe/route.ts",
    `import { getDb } from "@/lib/database";\nimport { closeDb } from "@/db/client";`,
  ],
  [
    "lib/service importing lib/env and itself",
    "lib/service/probe.ts",
    `import { env } from "@/lib/env";\nimport { ServiceError } from "./errors";\nimport { parsePull } from "@/lib/service/schemas";`,
  ],
  [
    "lib/ importing db/ and lib/service",
    "lib/pulls/probe.ts",
    `import { pulls } from "@/db/schema";\nimport { parsePull } from "@/lib/service/schemas";`,
  ],
  [
    "the sandbox importing lib/service/schemas and itself",
    "sandbox/probe.ts",
    `import { parsePull } from "@/lib/service/schemas";\nimport { startSandbox } from "./server";`,
  ],
  ["lib/env.ts reading process.env", "lib/env.ts", `export const url = process.env.DATABASE_URL;`],
  [
    "a domain importing the base and a lower domain",
    "lib/workflow/probe.ts",
    `import { recordAudit } from "@/lib/audit/audit-log";\nimport { can } from "@/lib/auth/permissions";\nimport { getViewablePull } from "@/lib/pulls/access";`,
  ],
  [
    "a loader importing domains and the base",
    "lib/loaders/probe.ts",
    `import { getReport } from "@/lib/reports/queries";\nimport { requireSession } from "@/lib/auth/session";`,
  ],
  ["ingest importing a domain", "lib/ingest/probe.ts", `import { raiseAlerts } from "@/lib/alerts/raise";`],
  [
    "the base importing the base",
    "lib/auth/probe.ts",
    `import { recordAudit } from "@/lib/audit/audit-log";\nimport type { Actor } from "@/lib/core/actor";`,
  ],
  [
    "a test driving the sandbox and a route",
    "lib/ingest/probe.test.ts",
    `import { startSandbox } from "@/sandbox/server";\nimport { POST } from "@/app/api/webhooks/service/route";`,
  ],
];

describe("the rooms in eslint.config.mjs", { timeout: 60_000 }, () => {
  it.each(refused)("report %s", async (_name, filePath, code) => {
    expect(await roomProblems(filePath, code)).not.toEqual([]);
  });

  it.each(allowed)("allow %s", async (_name, filePath, code) => {
    expect(await roomProblems(filePath, code)).toEqual([]);
  });
});
