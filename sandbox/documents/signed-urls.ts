import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Short-lived download links, as the service hands out for documents and uploaded files: the
// link itself is the credential (no Basic auth), so it carries an expiry and an HMAC over the
// path and that expiry. Any change to either, or a link past its time, is refused.

/** Where the storage server serves the links. */
export const FILES_PREFIX = "/files/";
export const LINK_TTL_SECONDS = 5 * 60;

export type FileRef =
  | { kind: "document"; pullId: string; documentId: string }
  | { kind: "answer"; pullId: string; answerId: string; fileId: string }
  | { kind: "form"; formId: string };

export function filePath(ref: FileRef): string {
  if (ref.kind === "form") return `${FILES_PREFIX}forms/${ref.formId}.pdf`;
  return ref.kind === "document"
    ? `${FILES_PREFIX}documents/${ref.pullId}/${ref.documentId}.pdf`
    : `${FILES_PREFIX}answers/${ref.pullId}/${ref.answerId}/${ref.fileId}`;
}

export function parseFilePath(path: string): FileRef | null {
  const document = /^\/files\/documents\/([^/]+)\/([^/]+)\.pdf$/.exec(path);
  if (document) return { kind: "document", pullId: document[1] ?? "", documentId: document[2] ?? "" };
  const answer = /^\/files\/answers\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (answer) return { kind: "answer", pullId: answer[1] ?? "", answerId: answer[2] ?? "", fileId: answer[3] ?? "" };
  const form = /^\/files\/forms\/([^/]+)\.pdf$/.exec(path);
  if (form) return { kind: "form", formId: form[1] ?? "" };
  return null;
}

export function newSigningSecret(): Buffer {
  return randomBytes(32);
}

function signature(secret: Buffer, path: string, expires: number): string {
  return createHmac("sha256", secret).update(`${path}\n${expires}`).digest("hex");
}

/** An absolute link to `path` on `origin`, valid until `expires` (unix seconds). */
export function signFileUrl(secret: Buffer, origin: string, path: string, expires: number): string {
  return `${origin}${path}?expires=${expires}&signature=${signature(secret, path, expires)}`;
}

export type LinkCheck = "ok" | "expired" | "invalid";

export function checkFileLink(secret: Buffer, path: string, query: URLSearchParams, nowSeconds: number): LinkCheck {
  const expiresText = query.get("expires") ?? "";
  const given = query.get("signature") ?? "";
  if (!/^\d{1,12}$/.test(expiresText) || !/^[0-9a-f]{64}$/.test(given)) return "invalid";
  const expires = Number(expiresText);
  const expected = Buffer.from(signature(secret, path, expires), "hex");
  // The signature is checked before the expiry, so a forged expiry is "invalid", not "expired".
  if (!timingSafeEqual(expected, Buffer.from(given, "hex"))) return "invalid";
  return expires > nowSeconds ? "ok" : "expired";
}
