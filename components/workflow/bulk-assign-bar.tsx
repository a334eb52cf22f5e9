"use client";

import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { usePullActions } from "./pull-actions";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// Assign, monitor or stop monitoring the pulls ticked in the list. The row checkboxes belong to this form through their
// `form` attribute, so the table stays a plain table and it all works without JavaScript.

export const BULK_FORM_ID = "bulk-assign";

export function BulkAssignBar({ people }: { people: Array<{ id: string; name: string }> }) {
  const { bulk } = usePullActions();
  return (
    <ActionForm
      id={BULK_FORM_ID}
      action={bulk}
      inline
      className={cn(CARD_CLASS, "flex flex-wrap items-center gap-2 px-4 py-2 text-sm")}
      aria-label="Assign selected pulls"
    >
      <span className="text-slate-700">Selected pulls:</span>
      <label>
        <span className="sr-only">Assign to</span>
        <Select name="assigneeId" defaultValue="">
          <option value="">Unassigned (queue)</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </label>
      <SubmitButton name="intent" value="assign" pendingLabel="Working…">
        Assign selected
      </SubmitButton>
      <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
      <label className="flex items-center gap-1">
        <span>Monitor every</span>
        <Input name="every" type="number" min={1} max={120} defaultValue={1} className="w-16" />
      </label>
      <label>
        <span className="sr-only">Unit</span>
        <Select name="unit" defaultValue="M">
          <option value="D">days</option>
          <option value="M">months</option>
          <option value="Y">years</option>
        </Select>
      </label>
      <SubmitButton name="intent" value="monitor" variant="secondary">
        Monitor selected
      </SubmitButton>
      <SubmitButton name="intent" value="unmonitor" variant="secondary">
        Stop monitoring
      </SubmitButton>
      <span className="text-xs text-amber-800">Each refresh is billed like a pull.</span>
    </ActionForm>
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
