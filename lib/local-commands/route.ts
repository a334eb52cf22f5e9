import "server-only";
import { z } from "zod";
import { getConnection } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddressFrom } from "@/lib/security/client-address";
import { channelFileFor, isLoopbackAddress, tokenMatches } from "./channel";
import { isLocalCommandName, LocalCommandInputError, runLocalCommand } from "./registry";

// What the local command channel answers (lib/local-commands/channel-server.ts hands it each
// request, with the socket's address in X-Forwarded-For). Each refusal is a plain 404, so the
// channel looks absent to anyone who should not use it: outside development and test, on
// PostgreSQL, from off this machine, or without the token of the channel file.

const bodySchema = z.object({ command: z.string().max(80), input: z.unknown() });

const absent = () => Response.json({ error: "NOT_FOUND" }, { status: 404 });

export async function answerLocalCommand(request: Request): Promise<Response> {
  const config = env();
  if (config.nodeEnv === "production" || config.databaseUrl) return absent();
  const connection = await getConnection();
  if (connection.driver.kind !== "pglite") return absent();
  // The channel server puts the socket's address there: no proxy is trusted.
  let address: string | null = null;
  try {
    address = clientAddressFrom(request.headers, 0);
  } catch {
    address = null;
  }
  if (!isLoopbackAddress(address)) return absent();
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!(await tokenMatches(token, channelFileFor(config.pgliteDir)))) return absent();

  let body: z.infer<typeof bodySchema>;
  try {
    body = bodySchema.parse(await request.json());
  } catch {
    return Response.json({ error: "INVALID_BODY", message: "Send { command, input } as JSON." }, { status: 400 });
  }
  if (!isLocalCommandName(body.command))
    return Response.json({ error: "UNKNOWN_COMMAND", message: `No command named ${body.command}.` }, { status: 400 });
  try {
    return Response.json({ result: await runLocalCommand(connection.db, body.command, body.input) });
  } catch (error) {
    if (error instanceof LocalCommandInputError)
      return Response.json({ error: "INVALID_INPUT", message: error.message }, { status: 400 });
    console.error("[local-commands] failed", error);
    return Response.json({ error: "FAILED", message: "The command failed; see the server's log." }, { status: 500 });
  }
}
