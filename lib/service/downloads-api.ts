import "server-only";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { isPlainObject } from "./schemas";

// Documents and consumer-uploaded files download through short-lived signed URLs: the service
// answers 302 with the URL in `Location` (and in the body as `{ url }`). The signed URL needs
// no credentials and points at the service's storage host; Coverdesk fetches it and relays
// the bytes (lib/pulls/document-relay.ts), so the browser never holds it.
//
// Which route to ask: the file's own `download_url` when the pull names one (the service's
// address for it, whatever shape the service gives it), else the documented route. The call
// carries our credentials, so a `download_url` is used only when it lies under the configured
// base URL (same origin and path, with or without our team's prefix); anything else is refused,
// never asked.

/** A file's `download_url` names an address outside the configured service. */
export class ForeignDownloadUrlError extends Error {
  /** The origin it named, for the server log (never the whole address). */
  readonly origin: string;
  constructor(origin: string) {
    super(`download_url on ${origin} is not on the configured service; not asked with credentials`);
    this.name = "ForeignDownloadUrlError";
    this.origin = origin;
  }
}

type ServiceRoute = { path: string; query: Record<string, string> };

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether two addresses reach the same server: the same origin, or this machine's names on the
 * same scheme and port. A service here (the sandbox) writes its addresses with the address it
 * listens on, whichever name reached it (`npm run dev` calls it localhost).
 */
function sameServer(a: URL, b: URL): boolean {
  if (a.origin === b.origin) return true;
  return (
    a.protocol === b.protocol && a.port === b.port && LOOPBACK_NAMES.has(a.hostname) && LOOPBACK_NAMES.has(b.hostname)
  );
}

/**
 * The route of `downloadUrl` relative to the configured base and team, or ForeignDownloadUrlError
 * when it is not under them. Exported for its tests.
 */
export function serviceRouteOf(config: Pick<ServiceConfig, "baseUrl" | "teamId">, downloadUrl: string): ServiceRoute {
  let url: URL;
  try {
    url = new URL(downloadUrl);
  } catch {
    throw new ForeignDownloadUrlError("(not a URL)");
  }
  const base = new URL(config.baseUrl);
  const basePath = base.pathname.replace(/\/$/, "");
  if (!sameServer(url, base) || url.username || url.password || !url.pathname.startsWith(`${basePath}/`))
    throw new ForeignDownloadUrlError(url.origin);
  let path = url.pathname.slice(basePath.length);
  const team = /^\/teams\/([^/]+)(\/.*)$/.exec(path);
  if (team) {
    // Our own team's prefix is put back by the client; another team's is not ours to ask.
    if (!config.teamId || team[1] !== encodeURIComponent(config.teamId))
      throw new ForeignDownloadUrlError(`${url.origin} (another team)`);
    path = team[2] ?? "";
  }
  return { path, query: Object.fromEntries(url.searchParams) };
}

export async function signedUrl(config: ServiceConfig, path: string, query?: Record<string, string>): Promise<string> {
  const response = await serviceRequest(config, { method: "GET", path, query, teamScoped: true, idempotent: true });
  const location = response.headers.get("location");
  const fromBody = isPlainObject(response.body) && typeof response.body.url === "string" ? response.body.url : null;
  const url = location ?? fromBody;
  if (!url || !/^https?:\/\//.test(url)) {
    throw new ServiceError({
      status: response.status,
      code: "INVALID_RESPONSE",
      message: `GET ${path}: no download URL in the answer`,
      retryable: false,
    });
  }
  return url;
}

/** Asks the file's own download_url when it has one, else the documented route. */
function signedUrlOf(config: ServiceConfig, downloadUrl: string | null, documentedPath: string): Promise<string> {
  if (downloadUrl === null) return signedUrl(config, documentedPath);
  const route = serviceRouteOf(config, downloadUrl);
  return signedUrl(config, route.path, route.query);
}

export function getDocumentDownloadUrl(
  config: ServiceConfig,
  document: { pullId: string; documentId: string; downloadUrl: string | null },
): Promise<string> {
  return signedUrlOf(
    config,
    document.downloadUrl,
    `/pulls/${encodeURIComponent(document.pullId)}/documents/${encodeURIComponent(document.documentId)}`,
  );
}

export function getAnswerFileDownloadUrl(
  config: ServiceConfig,
  file: { pullId: string; answerId: string; fileId: string; downloadUrl: string | null },
): Promise<string> {
  return signedUrlOf(
    config,
    file.downloadUrl,
    `/pulls/${encodeURIComponent(file.pullId)}/answers/${encodeURIComponent(file.answerId)}/files/${encodeURIComponent(file.fileId)}`,
  );
}
