"use client";

import { useActionState } from "react";
import { IDLE } from "@/lib/workflow/form-state";
import { FormMessage } from "@/components/ui/form-message";
import { usePullActions } from "./pull-actions";

// Assign, monitor or stop monitoring the pulls ticked in the list. The row checkboxes belong to this form through their
// `form` attribute, so the table stays a plain table and it all works without JavaScript.

export const BULK_FORM_ID = "bulk-assign";

export function BulkAssignBar({ people }: { people: Array<{ id: string; name: string }> }) {
  const { bulk } = usePullActions();
  const [state, action, pending] = useActionState(bulk, IDLE);
  return (
    <form
      id={BULK_FORM_ID}
      action={action}
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm"
      aria-label="Assign selected pulls"
    >
      <span className="text-slate-700">Selected pulls:</span>
      <label>
        <span className="sr-only">Assign to</span>
        <select name="assigneeId" defaultValue="" className="rounded-md border border-slate-300 bg-white px-2 py-1.5">
          <option value="">Unassigned (queue)</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        name="intent"
        value="assign"
        disabled={pending}
        className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white hover:bg-brand-900 disabled:opacity-50"
      >
        {pending ? "Working…" : "Assign selected"}
      </button>
      <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
      <label className="flex items-center gap-1">
        <span>Monitor every</span>
        <input
          name="every"
          type="number"
          min={1}
          max={120}
          defaultValue={1}
          className="w-16 rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      <label>
        <span className="sr-only">Unit</span>
        <select name="unit" defaultValue="M" className="rounded-md border border-slate-300 bg-white px-2 py-1.5">
          <option value="D">days</option>
          <option value="M">months</option>
          <option value="Y">years</option>
        </select>
      </label>
      <button
        type="submit"
        name="intent"
        value="monitor"
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100 disabled:opacity-50"
      >
        Monitor selected
      </button>
      <button
        type="submit"
        name="intent"
        value="unmonitor"
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100 disabled:opacity-50"
      >
        Stop monitoring
      </button>
      <span className="text-xs text-amber-800">Each refresh is billed like a pull.</span>
      <FormMessage state={state} />
    </form>
  );
}

/** Ticks or unticks every row of the bulk form on this page. */
export function SelectAllRows() {
  return (
    <input
      type="checkbox"
      aria-label="Select all pulls on this page"
      onChange={(event) => {
        const boxes = document.querySelectorAll<HTMLInputElement>(
          `input[type=checkbox][form=${BULK_FORM_ID}][name=pullIds]`,
        );
        for (const box of boxes) box.checked = event.currentTarget.checked;
      }}
    />
  );
}
