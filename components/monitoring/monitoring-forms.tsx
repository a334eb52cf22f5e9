"use client";

import { useActionState } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { usePullActions } from "@/components/workflow/pull-actions";
import { IDLE } from "@/lib/workflow/form-state";

// The monitoring controls of a pull. Every call goes to the service; the page shows only what
// the service accepted.

const input = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
const button = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50";

function IntervalFields() {
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <span>Every</span>
        <input name="every" type="number" min={1} max={120} defaultValue={1} required className={`${input} w-20`} />
      </label>
      <label>
        <span className="sr-only">Unit</span>
        <select name="unit" defaultValue="M" className={input}>
          <option value="D">days</option>
          <option value="M">months</option>
          <option value="Y">years</option>
        </select>
      </label>
    </>
  );
}

export function EnableMonitoringForm({ pullId }: { pullId: string }) {
  const { enableMonitoring } = usePullActions();
  const [state, action, pending] = useActionState(enableMonitoring, IDLE);
  return (
    <form action={action} className="flex flex-wrap items-center gap-2" aria-label="Turn monitoring on">
      <input type="hidden" name="pullId" value={pullId} />
      <IntervalFields />
      <label className="flex items-center gap-2 text-sm">
        <span>until</span>
        <input name="stopAfter" type="date" className={input} aria-label="Stop after (optional)" />
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
      >
        {pending ? "Turning on…" : "Turn monitoring on"}
      </button>
      <FormMessage state={state} />
    </form>
  );
}

export function ActiveMonitoringForms({ pullId, monitoringId }: { pullId: string; monitoringId: string }) {
  const actions = usePullActions();
  const [changeState, change, changing] = useActionState(actions.changeMonitoring, IDLE);
  const [refreshState, refresh, refreshing] = useActionState(actions.refreshMonitoring, IDLE);
  const [stopState, stop, stopping] = useActionState(actions.stopMonitoring, IDLE);
  const ids = (
    <>
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="monitoringId" value={monitoringId} />
    </>
  );
  return (
    <div className="space-y-3">
      <form action={change} className="flex flex-wrap items-center gap-2" aria-label="Change the interval">
        {ids}
        <IntervalFields />
        <button type="submit" disabled={changing} className={button}>
          Change interval
        </button>
        <FormMessage state={changeState} />
      </form>
      <div className="flex flex-wrap gap-3">
        <form action={refresh} className="flex items-center gap-2">
          {ids}
          <button type="submit" disabled={refreshing} className={button}>
            Refresh now
          </button>
          <FormMessage state={refreshState} />
        </form>
        <form action={stop} className="flex items-center gap-2">
          {ids}
          <button
            type="submit"
            disabled={stopping}
            className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
          >
            Turn monitoring off
          </button>
          <FormMessage state={stopState} />
        </form>
      </div>
    </div>
  );
}
