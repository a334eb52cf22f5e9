import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

// The local command channel: how a command line reaches the embedded database while a
// development server holds it (PGlite admits one process). The server, when it starts on PGlite
// in development or test, writes .data/local-commands.json (its port, its pid and a random
// token; readable by this user only) and serves POST /api/local/commands, which answers only
// loopback connections carrying that token. A script uses the channel when the file names a
// live process, and otherwise opens the database itself.

/** The channel file of the embedded database in `pgliteDir`: beside its folder (.data/local-commands.json by default). */
export const channelFileFor = (pgliteDir: string) =>
  path.join(path.dirname(path.resolve(pgliteDir)), "local-commands.json");
export const CHANNEL_PATH = "/commands";

const channelSchema = z.object({
  port: z.number().int().min(1).max(65_535),
  pid: z.number().int().positive(),
  token: z.string().min(32),
});
export type Channel = z.infer<typeof channelSchema>;

/** Writes this server's channel file (mode 0600) with a new token; answers what it wrote. */
export async function openChannel(port: number, file: string): Promise<Channel> {
  const channel = { port, pid: process.pid, token: randomBytes(32).toString("base64url") };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(channel)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file: an older one keeps its own.
  await chmod(file, 0o600);
  return channel;
}

/** Removes the channel file if it is still this process's. */
export async function closeChannel(file: string): Promise<void> {
  const channel = await readChannel(file);
  if (channel?.pid === process.pid) await rm(file, { force: true });
}

export async function readChannel(file: string): Promise<Channel | null> {
  try {
    const parsed = channelSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether a process of that id is running (a signal 0 probes without sending anything). */
export function isLiveProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The channel of a running server, or null (no file, a bad one, or its process has ended). */
export async function liveChannel(file: string): Promise<Channel | null> {
  const channel = await readChannel(file);
  return channel && isLiveProcess(channel.pid) ? channel : null;
}

/**
 * A presented token against the one this server wrote (the file must still be this process's),
 * in constant time: the route and the start-up need share no memory, only the file.
 */
export async function tokenMatches(presented: string | null | undefined, file: string): Promise<boolean> {
  const channel = await readChannel(file);
  if (!channel || channel.pid !== process.pid || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(channel.token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
export const isLoopbackAddress = (address: string | null | undefined): boolean =>
  Boolean(address && LOOPBACK.test(address));
