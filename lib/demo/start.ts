import "server-only";
import { count } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls } from "@/db/schema";
import type { Env } from "@/lib/env";
import { runRefreshTimingNow } from "@/lib/monitoring/refresh-timing-schedule";
import { buildDemoHistory, getDemoHistoryMark } from "./history";
import { sandboxControlUrl } from "./sandbox-control";

// When the demo agency's history is built: in development (demo mode), into a database that has
// no pulls yet, or to finish one that a restart interrupted. Never in production: demo mode is
// refused there (lib/env.ts), and so is COVERDESK_DEMO_HISTORY.

/** The seed of the demo agency: the same book, people and decisions on every machine. */
export const DEMO_SEED = 20_260_901;
/** How long the sandbox (started beside the app) may take to answer before the build gives up. */
const SANDBOX_WAIT_MS = 120_000;

const flag = globalThis as unknown as { __coverdeskDemoHistoryRunning?: boolean };

export type DemoHistoryDecision =
  | { run: false; reason: string }
  | { run: true; seed: number; size: number; until: Date; controlUrl: string; resumed: boolean };

export async function decideDemoHistory(db: Db, config: Env, now = new Date()): Promise<DemoHistoryDecision> {
  if (config.nodeEnv === "production" || !config.demoMode || !config.demoHistory) return { run: false, reason: "off" };
  const controlUrl = sandboxControlUrl(config.service.baseUrl);
  if (!controlUrl) return { run: false, reason: "the service is not the local sandbox" };
  const mark = await getDemoHistoryMark(db);
  if (mark?.finished) return { run: false, reason: "already built" };
  if (mark) return { run: true, seed: mark.seed, size: mark.size, until: mark.until, controlUrl, resumed: true };
  const [row] = await db.select({ n: count() }).from(pulls);
  if ((row?.n ?? 0) > 0) return { run: false, reason: "the database already has pulls" };
  // A whole minute in the past, so the sandbox's clock is surely past it.
  const until = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 60_000);
  return { run: true, seed: DEMO_SEED, size: config.demoHistory.accounts, until, controlUrl, resumed: false };
}

async function sandboxAnswers(controlUrl: string): Promise<boolean> {
  const deadline = Date.now() + SANDBOX_WAIT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${controlUrl}/state`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return false;
}

/** Starts the build in the background when it is due; pages work meanwhile and show its progress. */
export async function startDemoHistory(db: Db, config: Env): Promise<void> {
  if (flag.__coverdeskDemoHistoryRunning) return; // dev reloads run start-up again
  const decision = await decideDemoHistory(db, config);
  if (!decision.run) return;
  flag.__coverdeskDemoHistoryRunning = true;
  const started = Date.now();
  console.info(
    `[demo] ${decision.resumed ? "resuming" : "building"} the demo agency's history: ${decision.size} linked accounts over nine months (in the background)`,
  );
  void (async () => {
    if (!(await sandboxAnswers(decision.controlUrl))) {
      console.error(
        `[demo] the sandbox at ${decision.controlUrl} did not answer; the history will resume at the next start`,
      );
      return;
    }
    const result = await buildDemoHistory({
      db,
      service: config.service,
      agencyzoom: config.agencyzoom,
      controlUrl: decision.controlUrl,
      seed: decision.seed,
      size: decision.size,
      until: decision.until,
      log: (message) => console.info(`[demo] ${message}`),
    });
    console.info(
      `[demo] the demo agency's history is complete: ${result.accounts} accounts, ${result.steps} steps, ${result.monitored} monitored, in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    // The monitored accounts' next refreshes, timed to their renewals now rather than within the hour.
    await runRefreshTimingNow();
  })()
    .catch((error: unknown) => console.error("[demo] building the history failed; it resumes at the next start", error))
    .finally(() => {
      flag.__coverdeskDemoHistoryRunning = false;
    });
}
