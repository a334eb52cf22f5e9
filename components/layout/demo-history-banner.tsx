import type { DemoHistoryProgress } from "@/lib/demo/progress";

// Development only: says that the demo agency's history is still being written, so a newcomer
// knows why the reports fill up as they watch. Rendered by the layout while the build runs.

const PHASE: Record<DemoHistoryProgress["phase"], string> = {
  receiving: "linked accounts received",
  working: "accounts",
  monitoring: "accounts; now monitoring part of the book",
};

export function DemoHistoryBanner({ progress }: { progress: DemoHistoryProgress }) {
  return (
    <aside
      aria-label="Demo agency"
      data-testid="demo-history-banner"
      className="mb-4 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200"
    >
      Building the demo agency&apos;s history: {progress.done} of {progress.total} {PHASE[progress.phase]}. Reload to
      see more.
    </aside>
  );
}
