import "server-only";
import { openConfiguredDatabase } from "@/lib/database";
import { env } from "@/lib/env";
import { CHANNEL_PATH, channelFileFor, liveChannel } from "./channel";
import { runLocalCommand, type LocalCommandName, type LocalCommandOutput } from "./registry";

// The command line's side: run a registered command where the database is. PostgreSQL is opened
// directly (any number of processes may share it); the embedded database through the running
// development server's channel when there is one, else opened here.

export type Via = "postgres" | "pglite" | "channel";

export class ChannelError extends Error {}

/** Runs the command and answers its result, with the way it went. */
export async function callLocalCommand<Name extends LocalCommandName>(
  name: Name,
  input: unknown,
): Promise<{ via: Via; result: LocalCommandOutput<Name> }> {
  const config = env();
  if (!config.databaseUrl) {
    const channel = await liveChannel(channelFileFor(config.pgliteDir));
    if (channel) {
      const response = await fetch(`http://127.0.0.1:${channel.port}${CHANNEL_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${channel.token}` },
        body: JSON.stringify({ command: name, input }),
      }).catch((error: unknown) => {
        throw new ChannelError(
          `The development server (pid ${channel.pid}) holds the database but did not answer on port ${channel.port}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      const body = (await response.json().catch(() => ({}))) as { result?: unknown; message?: string; error?: string };
      if (!response.ok)
        throw new ChannelError(body.message ?? `The development server refused the command (${response.status}).`);
      return { via: "channel", result: body.result as LocalCommandOutput<Name> };
    }
  }
  const connection = await openConfiguredDatabase(config);
  try {
    const result = await runLocalCommand(connection.db, name, input);
    return { via: connection.driver.kind, result };
  } finally {
    await connection.close();
  }
}
