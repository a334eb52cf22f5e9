"use client";

import { ActionForm } from "@/components/ui/action-form";
import { Select } from "@/components/ui/select";
import { usePullActions } from "./pull-actions";

// Assign, reassign or unassign (managers and admins), or take an unassigned pull (anyone who
// sees it). The assignee the page showed travels with the form to catch a change meanwhile.

export function AssignForm({
  pullId,
  assigneeId,
  people,
}: {
  pullId: string;
  assigneeId: string | null;
  people: Array<{ id: string; name: string }>;
}) {
  const { assign } = usePullActions();
  return (
    <ActionForm
      action={assign}
      aria-label="Assignment"
      submitVariant="secondary"
      submitLabel="Save assignee"
      pendingLabel="Saving…"
    >
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="expectedAssigneeId" value={assigneeId ?? ""} />
      <label className="block text-sm">
        <span className="text-xs font-medium tracking-wide text-slate-500 uppercase">Assignee</span>
        <Select name="assigneeId" defaultValue={assigneeId ?? ""} className="mt-1 block w-full">
          <option value="">Unassigned (queue)</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </label>
    </ActionForm>
  );
}

export function ClaimButton({ pullId }: { pullId: string }) {
  const { claim } = usePullActions();
  return (
    <ActionForm action={claim} className="" submitLabel="Take this pull" pendingLabel="Taking…">
      <input type="hidden" name="pullId" value={pullId} />
    </ActionForm>
  );
}
