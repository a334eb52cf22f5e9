import { createServer } from "node:http";
import type { SandboxContext } from "./context";
import { FILES_PREFIX } from "./documents/signed-urls";
import { fail } from "./http";
import { listen, type Listening } from "./listen";
import { fileRoutes } from "./routes/downloads";

// The service's storage host: the real service signs download links on a host of its own, not
// the API's (service-notes, "Pulls"), so the sandbox serves them from a second server on
// another port. It answers the signed links only: no API, no credentials, no control routes.

export async function startStorageServer(
  context: SandboxContext,
  options: { port: number; host: string },
): Promise<Listening> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://storage");
    const method = req.method ?? "GET";
    if (!url.pathname.startsWith(FILES_PREFIX)) {
      fail(res, 404, "NOT_FOUND");
      return;
    }
    fileRoutes(context, { req, res, method, path: url.pathname, url }).catch((error: unknown) => {
      context.log(`storage: internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) fail(res, 500, "INTERNAL_ERROR");
    });
  });
  return listen(server, options.port, options.host);
}
