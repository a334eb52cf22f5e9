"use client";

import { ActionForm } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import { usePullActions } from "@/components/workflow/pull-actions";
import { Select } from "@/components/ui/select";

// The monitoring controls of a pull. Every call goes to the service; the page shows only what
// the service accepted.

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
  return (
    <ActionForm
      action={enableMonitoring}
      inline
      aria-label="Turn monitoring on"
      submitLabel="Turn monitoring on"
      pendingLabel="Turning on…"
    >
      <input type="hidden" name="pullId" value={pullId} />
      <IntervalFields />
      <label className="flex items-center gap-2 text-sm">
        <span>until</span>
        <Input name="stopAfter" type="date" aria-label="Stop after (optional)" />
      </label>
    </ActionForm>
  );
}

export function ActiveMonitoringForms({ pullId, monitoringId }: { pullId: string; monitoringId: string }) {
  const actions = usePullActions();
  const ids = (
    <>
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="monitoringId" value={monitoringId} />
    </>
  );
  return (
    <div className="space-y-3">
      <ActionForm
        action={actions.changeMonitoring}
        inline
        aria-label="Change the interval"
        submitVariant="secondary"
        submitLabel="Change interval"
      >
        {ids}
        <IntervalFields />
      </ActionForm>
      <div className="flex flex-wrap gap-3">
        <ActionForm action={actions.refreshMonitoring} inline submitVariant="secondary" submitLabel="Refresh now">
          {ids}
        </ActionForm>
        <ActionForm action={actions.stopMonitoring} inline submitVariant="danger" submitLabel="Turn monitoring off">
          {ids}
        </ActionForm>
      </div>
    </div>
  );
}
