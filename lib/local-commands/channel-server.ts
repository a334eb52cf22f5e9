import "server-only";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { closeChannel, openChannel } from "./channel";
import { answerLocalCommand } from "./route";

// The server's end of the local command channel: a small HTTP listener of its own, bound to the
// loopback interface on a port the system picks, beside the app's (never the app's own port, so
// the channel is not reachable from the network at all, whatever address `next dev` listens on,
// and the caller's address is the socket's, not a header anyone could send). Its port goes into
// the channel file with the token.

const MAX_BODY_BYTES = 64 * 1024;

export type ChannelServer = { port: number; close: () => Promise<void> };

export async function startChannelServer(file: string): Promise<ChannelServer> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      // The peer as the socket saw it: the only address the route believes.
      headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
      const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
        method: req.method,
        headers,
        ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
      });
      void answerLocalCommand(request)
        .then(async (response) => {
          res.writeHead(response.status, { "content-type": "application/json", "cache-control": "no-store" });
          res.end(await response.text());
        })
        .catch(() => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "FAILED" }));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  // It never keeps the process alive by itself.
  server.unref();
  const { port } = server.address() as AddressInfo;
  await openChannel(port, file);
  return {
    port,
    close: async () => {
      await closeChannel(file);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
