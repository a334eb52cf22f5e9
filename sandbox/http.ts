import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

// Small HTTP helpers: JSON answers in the service's `{"error": CODE}` shape, bodies, Basic auth.

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
