import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import { consumerSearchSchema, findConsumer, type ConsumerPull } from "@/lib/privacy/find-consumer";
import { eraseConsumer } from "@/lib/privacy/requests";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api/keys";

// The commands an operator runs from the command line (`npm run privacy -- …`), named once
// here with the zod schema of their input. The same registry answers two ways: a script opens
// the database itself and runs the command, or, when a development server holds the embedded
// database, it posts the command to that server's local channel (lib/local-commands/channel.ts,
// app/api/local/commands), which runs it here. A new command line is one entry.

export type LocalCommand<Input, Output> = {
  /** What it does, for the channel's refusals and the scripts' help. */
  summary: string;
  input: z.ZodType<Input>;
  run: (db: Db, input: Input) => Promise<Output>;
};

const command = <Input, Output>(c: LocalCommand<Input, Output>) => c;

/** Who acts: the trail names the command line, not a user. */
const COMMAND_LINE = "the command line";

export const LOCAL_COMMANDS = {
  "privacy.find": command({
    summary: "Lists the pulls of the consumer an email, phone, name or date of birth finds.",
    input: consumerSearchSchema,
    async run(db, search): Promise<{ pulls: ConsumerPull[] }> {
      const pulls = await findConsumer(db, search);
      await recordAudit(db, null, "CONSUMER_SEARCHED", {
        details: {
          via: COMMAND_LINE,
          fields: Object.entries(search).flatMap(([k, v]) => (v ? [k] : [])),
          found: pulls.length,
        },
      });
      return { pulls };
    },
  }),
  "privacy.erase": command({
    summary: "Erases the consumer a search finds: every pull of theirs and everything of each.",
    input: consumerSearchSchema.and(
      z.object({
        /** The pulls shown before confirming: refused if the consumer's pulls are no longer these. */
        expectPullIds: z.array(z.uuid()).max(500).optional(),
      }),
    ),
    async run(
      db,
      input,
    ): Promise<
      { ok: true; requestId: string; pulls: number; counts: Record<string, number> } | { ok: false; message: string }
    > {
      const { expectPullIds, ...search } = input;
      const found = (await findConsumer(db, search)).map((p) => p.pullId);
      if (found.length === 0) return { ok: false, message: "No consumer matches: nothing was erased." };
      if (expectPullIds && [...found].sort().join() !== [...expectPullIds].sort().join())
        return { ok: false, message: "The consumer's pulls changed since they were listed: run the command again." };
      const result = await eraseConsumer(db, null, { pullIds: found });
      if (!result.ok) return { ok: false, message: result.message };
      return { ok: true, requestId: result.requestId, pulls: result.pullIds.length, counts: result.counts };
    },
  }),
  // The public API's keys (`npm run api-key`): the commands check their own input and answer
  // which field is wrong, as the admin page does.
  "api-key.create": command({
    summary: "Makes a key of the public API and answers it, once.",
    input: z.looseObject({}),
    run: (db, input) => createApiKey(db, input),
  }),
  "api-key.list": command({
    summary: "Lists the public API's keys, revoked ones too.",
    input: z.object({}),
    async run(db) {
      // Dates as text: the answer may cross the local channel as JSON.
      return (await listApiKeys(db)).map((key) => ({
        id: key.id,
        name: key.name,
        scopes: key.scopes,
        revokedAt: key.revokedAt?.toISOString() ?? null,
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      }));
    },
  }),
  "api-key.revoke": command({
    summary: "Revokes a key of the public API at once.",
    input: z.looseObject({}),
    run: (db, input) => revokeApiKey(db, input),
  }),
} as const;

export type LocalCommandName = keyof typeof LOCAL_COMMANDS;
export type LocalCommandOutput<Name extends LocalCommandName> = Awaited<
  ReturnType<(typeof LOCAL_COMMANDS)[Name]["run"]>
>;

export const isLocalCommandName = (name: unknown): name is LocalCommandName =>
  typeof name === "string" && Object.hasOwn(LOCAL_COMMANDS, name);

export class LocalCommandInputError extends Error {}

/** Validates the input against the command's schema and runs it. */
export async function runLocalCommand<Name extends LocalCommandName>(
  db: Db,
  name: Name,
  input: unknown,
): Promise<LocalCommandOutput<Name>> {
  const entry = LOCAL_COMMANDS[name] as unknown as LocalCommand<unknown, LocalCommandOutput<Name>>;
  const parsed = entry.input.safeParse(input);
  if (!parsed.success)
    throw new LocalCommandInputError(
      parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "),
    );
  return entry.run(db, parsed.data);
}
