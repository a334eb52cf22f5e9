import "server-only";
import { serviceRequest, type ServiceConfig } from "./client";
import { ServiceError } from "./errors";
import { isPlainObject } from "./schemas";

// Documents and consumer-uploaded files download through short-lived signed URLs: the service
// answers 302 with the URL in `Location` (and in the body as `{ url }`). The signed URL needs
// no credentials, so the app can redirect the browser to it without exposing ours.

export async function signedUrl(config: ServiceConfig, path: string): Promise<string> {
  const response = await serviceRequest(config, { method: "GET", path, teamScoped: true, idempotent: true });
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

export function getDocumentDownloadUrl(config: ServiceConfig, pullId: string, documentId: string): Promise<string> {
  return signedUrl(config, `/pulls/${encodeURIComponent(pullId)}/documents/${encodeURIComponent(documentId)}`);
}

export function getAnswerFileDownloadUrl(
  config: ServiceConfig,
  pullId: string,
  answerId: string,
  fileId: string,
): Promise<string> {
  return signedUrl(
    config,
    `/pulls/${encodeURIComponent(pullId)}/answers/${encodeURIComponent(answerId)}/files/${encodeURIComponent(fileId)}`,
  );
}
