import type { SandboxContext } from "../context";
import { createRandom, type Random } from "./random";

// The service promises no order for GET /pulls (service-notes, "Pulls": "No filters, no sort"),
// so the sandbox promises none either: each answer lists the matches in a fresh order, drawn
// from the sandbox's seed, so a client that pages by offset and trusts the order to hold
// between two requests misses pulls here as it could against the real service.

const orders = new WeakMap<SandboxContext, Random>();

/** `items` in an order of their own for this request (a new array; the input is left alone). */
export function unspecifiedOrder<T>(ctx: SandboxContext, items: readonly T[]): T[] {
  let random = orders.get(ctx);
  if (!random) {
    random = createRandom((ctx.options.seed * 48_271 + 11) >>> 0);
    orders.set(ctx, random);
  }
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
