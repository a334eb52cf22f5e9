import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// Both of the sandbox's servers (the API and its storage host) start and stop alike: listen,
// name the origin they listen on, and on close end every open connection first, so a keep-alive
// client cannot hold a test run open.

export type Listening = { origin: string; close: () => Promise<void> };

export async function listen(server: Server, port: number, host: string): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${address.port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
