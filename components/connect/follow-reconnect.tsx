"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

// Keeps the consumer's reconnect page on the step the service is at: it asks every two
// seconds whether anything changed (an AUTH_STATUS arrived by webhook) and re-renders if so.

const EVERY_MS = 2_000;

export function FollowReconnect({ token, version }: { token: string; version: string }) {
  const router = useRouter();
  const shown = useRef(version);
  useEffect(() => {
    shown.current = version;
  }, [version]);
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      if (document.hidden) return;
      try {
        const response = await fetch(`/api/connect/${encodeURIComponent(token)}/status`, {
          cache: "no-store",
          referrerPolicy: "no-referrer",
        });
        if (!response.ok || stopped) return;
        const { version: latest } = (await response.json()) as { version: string };
        if (latest !== shown.current) router.refresh();
      } catch {
        // A dropped poll is retried on the next tick.
      }
    }, EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [token, router]);
  return null;
}
