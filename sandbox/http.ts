import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

// Small HTTP helpers: JSON answers in the service's `{"error": CODE}` shape, bodies, team auth.

/** Answers with JSON; returns true so route modules can `return send(…)` as "handled". */
export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
  return true;
}

export const fail = (res: ServerResponse, status: number, code: string, message?: string): true =>
  send(res, status, message ? { error: code, message } : { error: code });

export async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function basicAuthOk(req: IncomingMessage, clientId: string, clientSecret: string): boolean {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith("Basic ")) return false;
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const at = decoded.indexOf(":");
  if (at < 0) return false;
  // Both compared, always, so the answer's timing does not tell which part was wrong.
  const idOk = same(decoded.slice(0, at), clientId);
  const secretOk = same(decoded.slice(at + 1), clientSecret);
  return idOk && secretOk;
}

/**
 * A team's own call: the `x-canopy-client-id` / `x-canopy-client-secret` headers, or Basic.
 * Never both at once (service-notes, "Addresses and authentication"): when either header is
 * there the headers alone decide and the Basic header is ignored, even a valid one.
 */
export function teamAuthOk(req: IncomingMessage, clientId: string, clientSecret: string): boolean {
  const id = req.headers["x-canopy-client-id"];
  const secret = req.headers["x-canopy-client-secret"];
  if (id === undefined && secret === undefined) return basicAuthOk(req, clientId, clientSecret);
  if (typeof id !== "string" || typeof secret !== "string") return false;
  const idOk = same(id, clientId);
  const secretOk = same(secret, clientSecret);
  return idOk && secretOk;
}
