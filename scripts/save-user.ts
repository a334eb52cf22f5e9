// `npm run user:save -- --email ana@agency.com --name "Ana Ruiz" --role AGENT`
// Creates a user, or resets the name, role and password of an existing one. The password is
// read from COVERDESK_USER_PASSWORD or asked for on the terminal, never taken as an argument
// (arguments end up in shell history and process lists).
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { openConfiguredDatabase } from "@/lib/database";
import { saveUser } from "@/lib/users/save-user";

async function readPassword(): Promise<string> {
  const fromEnv = process.env.COVERDESK_USER_PASSWORD;
  if (fromEnv) return fromEnv;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await prompt.question("Password (12 to 72 characters): ");
  } finally {
    prompt.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
  });
  const connection = await openConfiguredDatabase();
  try {
    const result = await saveUser(connection.db, {
      email: values.email ?? "",
      name: values.name ?? "",
      role: (values.role ?? "").toUpperCase() as "AGENT",
      password: await readPassword(),
    });
    console.log(
      `${result.created ? "Created" : "Updated"} ${values.email?.trim().toLowerCase()} (${values.role?.toUpperCase()}).`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      for (const issue of error.issues) console.error(`${issue.path.join(".") || "input"}: ${issue.message}`);
      return 2;
    }
    throw error;
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
