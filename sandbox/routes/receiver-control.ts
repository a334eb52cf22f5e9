import type { IncomingMessage, ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { SandboxContext } from "../context";
import { describeIssues } from "../context";
import { fail, readJson, send } from "../http";

// A receiver of the agency's outgoing webhooks, under the control API: the part a Zapier or Make
// hook plays in a real agency, so the demo agency's webhooks page has deliveries to show. It
// checks each delivery's signature with the Standard Webhooks reference library (once told the
// endpoint's secret) and refuses the first attempt of every fifth message with a 503, so the
// page shows a retry too. Not part of the service's surface.
//   POST /receiver          a delivery (webhook-id, webhook-timestamp, webhook-signature headers)
//   PUT  /receiver/secret   {secret}: the endpoint's whsec_ secret, to verify with
//   GET  /receiver          {secret_set, received: [{id, type, verified, at}]}, newest first

type Received = { id: string; type: string; verified: boolean; at: string };
type ReceiverState = { secret: string | null; received: Received[]; seen: Map<string, number>; messages: number };

const KEEP = 500;
const FAIL_EVERY = 5;
const states = new WeakMap<SandboxContext, ReceiverState>();
const secretSchema = z.object({ secret: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, "a whsec_ secret") });

function stateOf(ctx: SandboxContext): ReceiverState {
  let state = states.get(ctx);
  if (!state) {
    state = { secret: null, received: [], seen: new Map(), messages: 0 };
    states.set(ctx, state);
  }
  return state;
}

async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** Handles /receiver…; false for any other path. */
export async function receiverControl(
  ctx: SandboxContext,
  method: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const state = stateOf(ctx);
  if (path === "/receiver" && method === "GET")
    return send(res, 200, { secret_set: state.secret !== null, received: state.received });
  if (path === "/receiver/secret" && method === "PUT") {
    const body = await readJson(req);
    const parsed = body.ok ? secretSchema.safeParse(body.value) : null;
    if (!parsed?.success)
      return fail(res, 400, "INVALID_INPUT", parsed ? describeIssues(parsed.error.issues) : "The body is not JSON.");
    state.secret = parsed.data.secret;
    return send(res, 200, { secret_set: true });
  }
  if (path !== "/receiver") return false;
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const payload = await rawBody(req);
  const id = header(req, "webhook-id");
  if (!id) return fail(res, 400, "INVALID_INPUT", "webhook-id is missing");
  let verified = false;
  if (state.secret) {
    try {
      new Webhook(state.secret).verify(payload, {
        "webhook-id": id,
        "webhook-timestamp": header(req, "webhook-timestamp"),
        "webhook-signature": header(req, "webhook-signature"),
      });
      verified = true;
    } catch {
      return fail(res, 401, "INVALID_SIGNATURE");
    }
  }
  const attempts = (state.seen.get(id) ?? 0) + 1;
  state.seen.set(id, attempts);
  if (attempts === 1 && ++state.messages % FAIL_EVERY === 0) return fail(res, 503, "TRY_AGAIN");
  let type = "unknown";
  try {
    type = String((JSON.parse(payload) as { type?: unknown }).type ?? "unknown");
  } catch {
    // kept as unknown: the signature held, the body is the sender's business
  }
  state.received.unshift({ id, type, verified, at: ctx.clock.now().toISOString() });
  state.received.length = Math.min(state.received.length, KEEP);
  if (state.seen.size > KEEP * 4) state.seen.clear();
  res.writeHead(204).end();
  return true;
}
