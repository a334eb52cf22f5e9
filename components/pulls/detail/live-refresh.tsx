"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { usePolling } from "@/components/providers/use-polling";

// Keeps an open pull page current: it asks every few seconds whether anything it shows has
// changed (new data by webhook, a login step, the pipeline, monitoring) and re-renders if so.

const EVERY_MS = 4_000;

async function fetchVersion(pullId: string): Promise<string | null> {
  const response = await fetch(`/api/pulls/${pullId}/version`, { cache: "no-store" });
  if (!response.ok) return null;
  return ((await response.json()) as { version: string }).version;
}

export function LiveRefresh({ pullId }: { pullId: string }) {
  const router = useRouter();
  const data = usePolling(() => fetchVersion(pullId), { everyMs: EVERY_MS, initial: null });
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!data) return;
    if (seen.current !== null && seen.current !== data) router.refresh();
    seen.current = data;
  }, [data, router]);
  return null;
}
