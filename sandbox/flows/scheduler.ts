import type { SandboxContext } from "../context";
import { runDueMonitorings } from "./refresh";
import { flowState } from "./state";

// Scheduled refreshes fire when the sandbox clock passes a monitoring's next_pull_date. The
// control API's clock advance checks at once; this ticker covers real time passing (a date set
// an hour ahead by PATCH, say). It does not keep the process alive and stops with the sandbox.

/** About once a minute of service time, but at least once a second of real time. */
const TICK_MS = 60_000;

export function ensureScheduler(ctx: SandboxContext): void {
  const state = flowState(ctx);
  if (state.scheduler) return;
  const timer = setInterval(
    () => {
      if (ctx.deliveries.isClosed) clearInterval(timer);
      else runDueMonitorings(ctx);
    },
    Math.max(1000, TICK_MS * ctx.options.speed),
  );
  timer.unref();
  state.scheduler = timer;
}
