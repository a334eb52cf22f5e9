import { createConnection, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

// A TCP relay that a test puts between a client and a server it must not restart (the
// machine's shared PostgreSQL): `cut()` drops every open connection and refuses new ones,
// as a restarting or unreachable database server would; `restore()` lets them through again.
// A cut resets the connections (the client reads ECONNRESET, as from a crashed host) or closes
// them cleanly (the client reads end-of-stream, as when PostgreSQL shuts down or a pooler
// restarts): the client library takes a different path for each.

export type TcpProxy = {
  port: number;
  /** Connections relayed since the start, refused ones not counted. */
  readonly accepted: number;
  /** Connections refused while cut. */
  readonly refused: number;
  cut: (how?: "reset" | "close") => void;
  restore: () => void;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  let accepted = 0;
  let refused = 0;

  const server = createServer((client) => {
    if (down) {
      refused++;
      client.resetAndDestroy(); // the client sees ECONNRESET at once, like a server that is not there
      return;
    }
    accepted++;
    const upstream = createConnection(target);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });

  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    get refused() {
      return refused;
    },
    cut(how = "reset") {
      down = true;
      for (const socket of open) {
        if (how === "reset") socket.resetAndDestroy();
        else socket.destroySoon(); // a FIN once anything already written is flushed
      }
      open.clear();
    },
    restore() {
      down = false;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A relay in front of the PostgreSQL server of `DATABASE_URL`, and the URL of `database` through it. */
export async function relayPostgres(database: string): Promise<{ proxy: TcpProxy; url: string }> {
  const direct = new URL(process.env.DATABASE_URL ?? "");
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const relayed = new URL(direct);
  relayed.hostname = "127.0.0.1";
  relayed.port = String(proxy.port);
  relayed.pathname = `/${database}`;
  return { proxy, url: relayed.toString() };
}
