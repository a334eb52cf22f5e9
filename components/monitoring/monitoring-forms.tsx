"use client";

import { useActionState } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { usePullActions } from "@/components/workflow/pull-actions";
import { IDLE } from "@/lib/workflow/form-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// The monitoring controls of a pull. Every call goes to the service; the page shows only what
// the service accepted.

const button = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50";

function IntervalFields() {
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <span>Every</span>
        <Input name="every" type="number" min={1} max={120} defaultValue={1} required className="w-20" />
      </label>
      <label>
        <span className="sr-only">Unit</span>
        <Select name="unit" defaultValue="M">
          <option value="D">days</option>
          <option value="M">months</option>
          <option value="Y">years</option>
        </Select>
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
        <Input name="stopAfter" type="date" aria-label="Stop after (optional)" />
      </label>
      <Button type="submit" disabled={pending}>
        {pending ? "Turning on…" : "Turn monitoring on"}
      </Button>
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
          <Button type="submit" disabled={stopping} variant="danger">
            Turn monitoring off
          </Button>
          <FormMessage state={stopState} />
        </form>
      </div>
    </div>
  );
}
