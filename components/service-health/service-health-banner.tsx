"use client";

import { usePolling } from "@/components/providers/use-polling";

// Says, on every signed-in page, that the data-link service is not answering and that what is
// shown is our stored copy. Rendered by the layout from the server's record, then kept current
// by polling it, so the notice comes and goes without a reload.

const SERVICE_DOWN_MESSAGE =
  "The data-link service is not answering; showing stored data. Changes will catch up when it returns.";
const EVERY_MS = 10_000;

async function fetchUnreachable(): Promise<boolean> {
  const response = await fetch("/api/service-health", { cache: "no-store" });
  if (!response.ok) throw new Error(`service health: ${response.status}`);
  return ((await response.json()) as { unreachable: boolean }).unreachable;
}

export function ServiceHealthBanner({ initiallyUnreachable }: { initiallyUnreachable: boolean }) {
  // Asks at once after hydration: the server's answer may already be old.
  const unreachable = usePolling(fetchUnreachable, { everyMs: EVERY_MS, initial: initiallyUnreachable });
  if (!unreachable) return null;
  return (
    // A labelled landmark, not a live region: pages keep their own status and alert messages
    // (form results), and this notice must not be mistaken for one of them.
    <aside
      aria-label="Service status"
      data-testid="service-health-banner"
      className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      {SERVICE_DOWN_MESSAGE}
    </aside>
  );
}
