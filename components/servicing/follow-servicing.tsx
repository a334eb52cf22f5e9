"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

// Keeps the consumer's confirm page current while their insurance company works: the page asks
// the server again every few seconds until there is something to answer or an outcome to show.

const EVERY_MS = 4_000;

export function FollowServicing() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) router.refresh();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}
