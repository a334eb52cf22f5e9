"use client";

import { useEffect, useRef, useState } from "react";

// Asks a JSON endpoint every `everyMs` while the tab is visible, at once when it becomes
// visible again, and after hydration when told to: the little the live parts of a page need,
// without a query library in every page's first load.

export function usePolling<T>(
  fetcher: () => Promise<T>,
  { everyMs, initial, immediately = true }: { everyMs: number; initial: T; immediately?: boolean },
): T {
  const [value, setValue] = useState<T>(initial);
  const latest = useRef(fetcher);
  useEffect(() => {
    latest.current = fetcher;
  });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      clearTimeout(timer);
      if (document.visibilityState === "visible") {
        try {
          const next = await latest.current();
          if (!stopped) setValue(next);
        } catch {
          // Keep what we had; the next round asks again.
        }
      }
      if (!stopped) timer = setTimeout(ask, everyMs);
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void ask();
    };
    if (immediately) void ask();
    else timer = setTimeout(ask, everyMs);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", onVisible);
    };
  }, [everyMs, immediately]);
  return value;
}
