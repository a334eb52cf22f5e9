"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { SyncRunView } from "@/lib/ingest/sync-view";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

// "Sync now" and the progress of the latest reconciliation run, polled while it runs.

async function fetchLatestRun(): Promise<SyncRunView | null> {
  const response = await fetch("/api/admin/sync", { cache: "no-store" });
  if (!response.ok) throw new Error("The sync status could not be read.");
  return ((await response.json()) as { run: SyncRunView | null }).run;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function progressText(run: SyncRunView): string {
  const of = run.total !== null ? ` of ${run.total.toLocaleString("en-US")}` : "";
  const listed = `${run.listed.toLocaleString("en-US")}${of} pulls checked: ${run.created} new, ${run.updated} changed`;
  if (run.phase === "PULLS") return listed;
  const rechecked = `${count(run.rechecked, "unfinished pull")} re-read, ${run.settled} now final`;
  if (run.phase === "STATUSES") return `${listed}; ${rechecked}`;
  const monitorings = `${count(run.monitorings, "monitoring")} compared: ${run.monitoringsFound} found, ${run.monitoringsChanged} changed`;
  return `${listed}; ${rechecked}; ${monitorings}`;
}

/** What "Sync now" answers: the run it started (or the one already running), or why not. */
export type StartSyncAnswer = { ok: true; started: boolean; run: SyncRunView } | { ok: false; message: string };

/** `startSync` is the page's server action. */
export function SyncPanel({
  initialRun,
  canRun,
  startSync,
}: {
  initialRun: SyncRunView | null;
  canRun: boolean;
  startSync: () => Promise<StartSyncAnswer>;
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: run, error } = useQuery({
    queryKey: ["sync-run"],
    queryFn: fetchLatestRun,
    initialData: initialRun,
    refetchInterval: (query) => (query.state.data?.status === "RUNNING" ? 1_000 : false),
  });
  const start = useMutation({
    mutationFn: () => startSync(),
    onSuccess: async (result) => {
      if (!result.ok) return;
      // A fetch of the latest run begun before this answer (the page's first) would otherwise land
      // after it and put back "no run yet", and a run that is not RUNNING is not polled again.
      await queryClient.cancelQueries({ queryKey: ["sync-run"] });
      queryClient.setQueryData(["sync-run"], result.run);
    },
  });

  // When a run finishes, the inbox and the pull list may have changed: re-render the page.
  const lastStatus = useRef(run?.status);
  useEffect(() => {
    if (lastStatus.current === "RUNNING" && run?.status !== "RUNNING") router.refresh();
    lastStatus.current = run?.status;
  }, [run?.status, router]);

  const hydrated = useHydrated();
  const running = run?.status === "RUNNING";
  const failure =
    start.data && !start.data.ok ? start.data.message : start.error ? "The sync could not be started." : null;
  const percent = run && running && run.total ? Math.min(100, Math.round((run.listed / run.total) * 100)) : null;

  return (
    <Card aria-labelledby="sync-title" data-testid="sync-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sync-title" className="font-semibold text-slate-900">
            Reconciliation with the service
          </h2>
          <p className="text-sm text-slate-600">
            Finds pulls whose webhooks never arrived, re-reads those not yet final, and compares the team&apos;s
            monitorings, including any started or stopped on the service&apos;s dashboard.
          </p>
        </div>
        {canRun ? (
          <Button
            type="button"
            onClick={() => start.mutate()}
            disabled={!hydrated || running || start.isPending}
            className="disabled:cursor-not-allowed"
          >
            {running ? "Syncing…" : "Sync now"}
          </Button>
        ) : null}
      </div>
      <div className="mt-3 text-sm" aria-live="polite" data-testid="sync-status">
        {!run ? (
          <p className="text-slate-600">No sync has run yet.</p>
        ) : running ? (
          <div className="space-y-1">
            <p className="text-slate-700">Running: {progressText(run)}</p>
            <div
              className="h-2 w-full overflow-hidden rounded bg-slate-100"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent ?? undefined}
            >
              <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent ?? 5}%` }} />
            </div>
          </div>
        ) : run.status === "FAILED" ? (
          <p className="text-red-700">
            Last sync failed: {run.error ?? "unknown error"}. {progressText(run)}.
          </p>
        ) : (
          <p className="text-slate-700">
            Last sync {new Date(run.finishedAt ?? run.startedAt).toLocaleString("en-US")}: {progressText(run)}.
          </p>
        )}
        {run && run.problems.length > 0 ? (
          <details className="mt-1 text-amber-800" data-testid="sync-problems">
            <summary>{count(run.problems.length, "note")} from the sync</summary>
            <ul className="ml-5 list-disc">
              {run.problems.map((problem, index) => (
                <li key={`${index}:${problem}`}>{problem}</li>
              ))}
            </ul>
          </details>
        ) : null}
        {failure ? (
          <p role="alert" className="mt-1 text-red-700">
            {failure}
          </p>
        ) : null}
        {error ? <p className="mt-1 text-amber-700">{error.message}</p> : null}
      </div>
    </Card>
  );
}
