import type { SyncRunRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { latestSyncRun } from "./sync";

// A sync run as the browser sees it: plain JSON, dates as ISO strings, no internal ids of users.
export type SyncRunView = {
  id: number;
  trigger: string;
  status: string;
  total: number | null;
  listed: number;
  created: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** PULLS, STATUSES or MONITORINGS while running; null once ended. */
  phase: string | null;
  rechecked: number;
  settled: number;
  gaveUp: number;
  monitorings: number;
  monitoringsFound: number;
  monitoringsChanged: number;
  problems: string[];
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

export function toSyncRunView(run: SyncRunRow): SyncRunView {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    total: run.total,
    listed: run.listed,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    invalid: run.invalid,
    phase: run.phase,
    rechecked: run.rechecked,
    settled: run.settled,
    gaveUp: run.gaveUp,
    monitorings: run.monitorings,
    monitoringsFound: run.monitoringsFound,
    monitoringsChanged: run.monitoringsChanged,
    problems: run.problems,
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** The latest run as the Events page shows it and polls it, or null before the first. */
export async function latestSyncRunView(db: Db): Promise<SyncRunView | null> {
  const run = await latestSyncRun(db);
  return run ? toSyncRunView(run) : null;
}
