// `npm run api-key -- create --name Zapier --scopes pulls:read,pulls:write [--rate-limit 120]`
// `npm run api-key -- list`
// `npm run api-key -- revoke --id <key id>`
// Makes, lists and revokes keys of the public API (/api/v1) from the command line, on the
// database the app uses: opened and migrated here, so it works before the app's first start, or,
// beside a running `npm run dev` on the embedded database, through its local channel.
// `create` prints the key alone on its last line, once: it is stored only as a hash.
import { parseArgs } from "node:util";
import { callLocalCommand } from "@/lib/local-commands/client";

const USAGE = `Usage:
  npm run api-key -- create --name NAME --scopes pulls:read,pulls:write [--rate-limit CALLS_A_MINUTE]
  npm run api-key -- list
  npm run api-key -- revoke --id KEY_ID`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      "rate-limit": { type: "string" },
      id: { type: "string" },
    },
  });
  const command = positionals[0];
  if (command !== "create" && command !== "list" && command !== "revoke") {
    console.error(USAGE);
    return 2;
  }
  if (command === "list") {
    for (const key of (await callLocalCommand("api-key.list", {})).result)
      console.log(
        [
          key.id,
          key.name,
          key.scopes.join(","),
          key.revokedAt ? `revoked ${key.revokedAt}` : "active",
          `last used ${key.lastUsedAt ?? "never"}`,
        ].join("\t"),
      );
    return 0;
  }
  if (command === "revoke") {
    const { result } = await callLocalCommand("api-key.revoke", { id: values.id ?? "" });
    if (!result.ok) {
      console.error(`${result.field ?? "id"}: ${result.message}`);
      return 2;
    }
    console.log(`Revoked the key "${result.name}".`);
    return 0;
  }
  const { result } = await callLocalCommand("api-key.create", {
    name: values.name ?? "",
    scopes: (values.scopes ?? "")
      .split(",")
      .map((scope) => scope.trim())
      .filter(Boolean),
    ...(values["rate-limit"] ? { rateLimitPerMinute: values["rate-limit"] } : {}),
  });
  if (!result.ok) {
    console.error(`${result.field ?? "input"}: ${result.message}`);
    return 2;
  }
  console.log(`Created the key "${result.name}" (${result.scopes.join(", ")}), id ${result.id}.`);
  console.log("It is shown once; store it now. Send it as: Authorization: Bearer <key>");
  console.log(result.key);
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
