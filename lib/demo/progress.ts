import "server-only";

// Where the demo agency's history stands in this process, for the banner on signed-in pages.
// Kept in memory: the build runs in this process only, and a restarted server resumes it.

export type DemoHistoryProgress = {
  phase: "receiving" | "working" | "monitoring";
  /** Accounts received (receiving) or whose history is written (working, monitoring). */
  done: number;
  total: number;
};

const holder = globalThis as unknown as { __coverdeskDemoHistory?: DemoHistoryProgress | null };

export function setDemoHistoryProgress(progress: DemoHistoryProgress | null): void {
  holder.__coverdeskDemoHistory = progress;
}

/** Null when no history is being built. */
export function getDemoHistoryProgress(): DemoHistoryProgress | null {
  return holder.__coverdeskDemoHistory ?? null;
}
