// `npm start`: the built app, served by Next.js behind this small Node server instead of
// `next start` (a "custom server", as the Next.js docs call it). It exists for one reason: the
// rate limits must know who is knocking. `next start` copies the socket's address into
// X-Forwarded-For only when the request has none, so a client that sends its own header hides
// its real address and picks any bucket it likes. Here the socket's address is always appended
// to X-Forwarded-For, as any proxy does, so the rightmost entry is always the peer that
// connected to us; lib/security/client-address.ts then believes the entry TRUSTED_PROXY_HOPS
// places from the right (0: the peer itself; 1 behind one reverse proxy; …).
//
// Usage: node server.mjs [-p PORT] [-H HOSTNAME]   (PORT and HOSTNAME from the environment too)
//
// Signals behave as with `next start`: on SIGTERM or SIGINT the server stops accepting
// connections, lets requests in flight finish, and the process exits with 143 or 130. These
// handlers are installed before Next loads instrumentation.ts, whose own handler (stop the
// worker, give its claims back) runs first and then hands over to them (lib/startup.ts).
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import next from "next";

const { values } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  allowPositionals: false,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname ?? process.env.HOSTNAME ?? undefined; // all interfaces, as next start
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`server.mjs: invalid port ${values.port ?? process.env.PORT}`);
  process.exit(2);
}
// Like `next start`: this server only ever serves a production build, in production mode. Test
// mode (the sandbox, the demo users and unsigned webhooks, which production refuses) only when the
// end-to-end tests and the bench ask for it with COVERDESK_TEST_MODE besides NODE_ENV=test; a
// stray NODE_ENV=test alone is ignored, and lib/env.ts refuses COVERDESK_TEST_MODE in production.
const testMode = process.env.NODE_ENV === "test" && ["true", "1"].includes(process.env.COVERDESK_TEST_MODE ?? "");
if (!testMode) process.env.NODE_ENV = "production";

/** Appends the address of the peer that opened this connection to X-Forwarded-For. */
function appendPeerAddress(request) {
  const peer = request.socket.remoteAddress;
  if (!peer) return false; // the socket is already gone
  const prior = request.headers["x-forwarded-for"]; // Node joins repeated headers with ", "
  request.headers["x-forwarded-for"] = prior && prior.trim() !== "" ? `${prior}, ${peer}` : peer;
  return true;
}

const app = next({
  dev: false,
  dir: fileURLToPath(new URL(".", import.meta.url)),
  hostname: hostname ?? "localhost",
  port,
});
/** Next's handler, once the app is prepared (the server listens only after that). */
let handle = null;
const server = createServer((request, response) => {
  if (!appendPeerAddress(request) || !handle) {
    response.destroy();
    return;
  }
  void handle(request, response);
});

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  server.close((error) => {
    if (error) console.error(error);
    app
      .close()
      .catch((closeError) => console.error(closeError))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

await app.prepare();
handle = app.getRequestHandler();
server.listen(port, hostname, () => {
  const address = server.address();
  const shown =
    typeof address === "object" && address
      ? `${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  console.log(`Coverdesk ready on http://${shown} (NODE_ENV=${process.env.NODE_ENV})`);
});
