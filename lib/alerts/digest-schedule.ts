import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { runDailyDigest } from "./digest";

// The daily digest on a timer inside the worker process, like the sync schedule: every few
// minutes each instance asks whether the digest hour has passed; the first to record the day
// sends (lib/alerts/digest.ts runDailyDigest), the others find it taken.

const CHECK_EVERY_MS = 5 * 60_000;
const globalSchedule = globalThis as unknown as { __coverdeskDigestTimer?: NodeJS.Timeout };

export function startDigestSchedule(): void {
  if (globalSchedule.__coverdeskDigestTimer) return;
  const check = async () => {
    try {
      const result = await runDailyDigest(await getDb(), env());
      if (result.sent) console.info(`[digest] sent ${result.mails} digests with ${result.alerts} alerts`);
    } catch (error) {
      console.error(`[digest] failed, will try again: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  globalSchedule.__coverdeskDigestTimer = setInterval(() => void check(), CHECK_EVERY_MS);
  globalSchedule.__coverdeskDigestTimer.unref();
}

export function stopDigestSchedule(): void {
  clearInterval(globalSchedule.__coverdeskDigestTimer);
  globalSchedule.__coverdeskDigestTimer = undefined;
}
