import "server-only";
import { getDb } from "@/lib/database";
import { runSpeedToLead } from "./speed-to-lead";

// The speed-to-lead rule on a timer inside the worker process, like the X-date upkeep: at start,
// then every minute (the rule's wait is at least 5 minutes, so a pull is acted on at most a
// minute late). Several instances may run it: each pull is claimed once (speed-to-lead.ts). A run
// still going when the next is due is not doubled.

const CHECK_EVERY_MS = 60_000;
const globalSchedule = globalThis as unknown as { __coverdeskSpeedToLeadTimer?: NodeJS.Timeout };
let running = false;

async function runOnce(): Promise<void> {
  if (running) return;
  running = true;
  try {
    const acted = await runSpeedToLead(await getDb());
    if (acted.length > 0) {
      const reassigned = acted.filter((a) => a.action === "REASSIGN").length;
      console.info(
        `[speed to lead] ${reassigned} pulls handed on, ${acted.length - reassigned} raised to the managers`,
      );
    }
  } catch (error) {
    console.error(`[speed to lead] failed, will try again: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    running = false;
  }
}

export function startSpeedToLead(): void {
  if (globalSchedule.__coverdeskSpeedToLeadTimer) return;
  void runOnce();
  globalSchedule.__coverdeskSpeedToLeadTimer = setInterval(() => void runOnce(), CHECK_EVERY_MS);
  globalSchedule.__coverdeskSpeedToLeadTimer.unref();
}

export function stopSpeedToLead(): void {
  clearInterval(globalSchedule.__coverdeskSpeedToLeadTimer);
  globalSchedule.__coverdeskSpeedToLeadTimer = undefined;
}
