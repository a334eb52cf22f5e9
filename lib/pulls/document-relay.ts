import "server-only";
import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import {
  DownloadBlockedError,
  fetchDownload,
  serviceDownloadPolicy,
  type DownloadPolicy,
} from "@/lib/security/download-guard";
import { ForeignDownloadUrlError } from "@/lib/service/downloads-api";
import { ServiceError } from "@/lib/service/errors";
import { baseContentType, downloadHeaders, safeFilename } from "./download-headers";

// Relays a file from the service's short-lived signed link to the browser. The browser never
// sees the link (a bearer credential while it lives) nor ours; the bytes are streamed, with a
// time limit and a size cap so a slow or huge upstream cannot tie up the server. Errors answer
// JSON that names no secret. Redirects are followed by hand, each hop checked and connected to
// the address that was checked (lib/security/download-guard.ts), so the link cannot make the
// server fetch its own network.

export const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

export function notFoundResponse(): NextResponse {
  return NextResponse.json(
    { error: "NOT_FOUND", message: "There is no such file on an account you can see." },
    { status: 404 },
  );
}

function badGateway(message: string): NextResponse {
  return NextResponse.json(
    { error: "SERVICE_ERROR", message },
    { status: 502, headers: { "cache-control": "no-store" } },
  );
}

/** Passes bytes through until `limit`, then fails the stream (the client sees a cut download). */
function capped(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new Error(`download larger than ${limit} bytes`));
      else controller.enqueue(chunk);
    },
  });
}

export type RelayRequest = {
  /** Asks the service for the signed link (with our credentials). */
  signedUrl: () => Promise<string>;
  /** The name the service gave the file; sanitised before it reaches a header. */
  title: string | null;
  fallbackName: string;
  /** For the server log only. */
  label: string;
  /** Where the file may come from; by default as lib/env.ts sets it (serviceDownloadPolicy). */
  policy?: DownloadPolicy;
};

export async function relayDownload(request: RelayRequest): Promise<Response> {
  let url: string;
  try {
    url = await request.signedUrl();
  } catch (error) {
    if (error instanceof ForeignDownloadUrlError) {
      console.error(`[download] ${request.label}: refused: ${error.message}`);
      return badGateway("The service gave this file an address outside the service, which Coverdesk does not ask.");
    }
    console.error(
      `[download] ${request.label}: ${error instanceof ServiceError ? `${error.code} ${error.message}` : "unexpected error"}`,
    );
    return badGateway("The service could not provide this file right now. Try again in a moment.");
  }

  let upstream: Response;
  try {
    upstream = await fetchDownload(url, request.policy ?? serviceDownloadPolicy(env()), {
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DownloadBlockedError) {
      // The reason names a host, never the signed link itself.
      console.error(`[download] ${request.label}: refused: ${error.message}`);
      return badGateway("The service sent this file from an address Coverdesk does not download from.");
    }
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    console.error(`[download] ${request.label}: the file link ${timedOut ? "timed out" : "could not be reached"}`);
    return badGateway(
      timedOut ? "The service took too long to send this file." : "The service could not be reached for this file.",
    );
  }
  if (!upstream.ok || !upstream.body) {
    console.error(`[download] ${request.label}: the file link answered ${upstream.status}`);
    await upstream.body?.cancel();
    return badGateway("The service did not send this file. Try again in a moment.");
  }

  const declared = Number(upstream.headers.get("content-length"));
  const length =
    upstream.headers.has("content-length") && Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
  if (length !== null && length > MAX_DOWNLOAD_BYTES) {
    await upstream.body.cancel();
    return badGateway("This file is larger than Coverdesk relays (25 MB).");
  }
  const contentType = baseContentType(upstream.headers.get("content-type"));
  const filename = safeFilename(request.title, contentType, request.fallbackName);
  return new Response(upstream.body.pipeThrough(capped(MAX_DOWNLOAD_BYTES)), {
    status: 200,
    headers: downloadHeaders(contentType, filename, length),
  });
}
