// `npm run privacy -- erase --email clark@example.com [--yes]`
// Erases a consumer: every pull of theirs and everything of each, as the request desk does
// (/admin/privacy), through the same code (lib/local-commands/registry.ts). Find them by --email,
// --phone, --name or --dob (several narrow the search). On a terminal it lists what will go and
// asks to confirm, unless --yes; run from a script (no terminal) it never asks. PostgreSQL
// (DATABASE_URL) is opened directly; the embedded database through a running `npm run dev`, or
// directly when none runs. `npm run privacy -- find --email …` only lists.
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { callLocalCommand } from "@/lib/local-commands/client";
import { LocalCommandInputError } from "@/lib/local-commands/registry";

const USAGE = "usage: npm run privacy -- <find|erase> [--email E] [--phone P] [--name N] [--dob YYYY-MM-DD] [--yes]";

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim().toLowerCase() === "erase";
  } finally {
    prompt.close();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      phone: { type: "string" },
      name: { type: "string" },
      dob: { type: "string" },
      yes: { type: "boolean", default: false },
    },
  });
  const [verb] = positionals;
  if (verb !== "find" && verb !== "erase") {
    console.error(USAGE);
    return 2;
  }
  const search = { email: values.email, phone: values.phone, name: values.name, birthDate: values.dob };
  const found = await callLocalCommand("privacy.find", search);
  const pulls = found.result.pulls;
  if (pulls.length === 0) {
    console.log("No consumer matches: nothing to do.");
    return verb === "erase" ? 1 : 0;
  }
  console.log(`${pulls.length} pull${pulls.length === 1 ? "" : "s"} of this consumer (via ${found.via}):`);
  for (const pull of pulls)
    console.log(`  ${pull.pullId}  ${pull.name || "(no name)"}  ${pull.carrier ?? ""}  ${pull.status}`);
  if (verb === "find") return 0;

  // A terminal asks first; a script (stdin not a terminal) never does: it asked by running this.
  if (process.stdin.isTTY && !values.yes) {
    const yes = await confirm(
      "Everything Coverdesk holds on them goes, and cannot be brought back. Type 'erase' to confirm: ",
    );
    if (!yes) {
      console.log("Nothing was erased.");
      return 1;
    }
  }
  const erased = await callLocalCommand("privacy.erase", { ...search, expectPullIds: pulls.map((p) => p.pullId) });
  if (!erased.result.ok) {
    console.error(erased.result.message);
    return 1;
  }
  const counts = Object.entries(erased.result.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  console.log(`Erased ${erased.result.pulls} pulls (${counts}). Request ${erased.result.requestId}.`);
  console.log("The service keeps its own copy: the steps to have it deleted are on the request, on /admin/privacy.");
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (error instanceof LocalCommandInputError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
