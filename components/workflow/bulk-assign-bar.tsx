"use client";

import { useActionState } from "react";
import { bulkAssignAction } from "@/app/(app)/pulls/actions";
import { IDLE } from "@/lib/workflow/form-state";
import { FormMessage } from "./form-message";

// Assign the pulls ticked in the list. The row checkboxes belong to this form through their
// `form` attribute, so the table stays a plain table and it all works without JavaScript.

export const BULK_FORM_ID = "bulk-assign";

export function BulkAssignBar({ people }: { people: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState(bulkAssignAction, IDLE);
  return (
    <form id={BULK_FORM_ID} action={action} className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm" aria-label="Assign selected pulls">
      <span className="text-slate-700">Selected pulls:</span>
      <label>
        <span className="sr-only">Assign to</span>
        <select name="assigneeId" defaultValue="" className="rounded-md border border-slate-300 bg-white px-2 py-1.5">
          <option value="">Unassigned (queue)</option>
          {people.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      </label>
      <button type="submit" disabled={pending} className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white hover:bg-brand-900 disabled:opacity-50">
        {pending ? "Assigning…" : "Assign selected"}
      </button>
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
        const boxes = document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][form=${BULK_FORM_ID}][name=pullIds]`);
        for (const box of boxes) box.checked = event.currentTarget.checked;
      }}
    />
  );
}
