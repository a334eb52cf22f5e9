"use client";

import { useSyncExternalStore } from "react";

// False in the server's HTML and until React has hydrated the page, true after. A button that
// works by script alone (no form behind it) is disabled until then, so a click that comes too
// early is refused visibly instead of being lost.

const noSubscription = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
