"use client";

import { useActionState } from "react";
import { IDLE } from "@/lib/workflow/form-state";
import { FormMessage } from "./form-message";
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
  const [state, action, pending] = useActionState(assign, IDLE);
  return (
    <form action={action} className="space-y-2" aria-label="Assignment">
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="expectedAssigneeId" value={assigneeId ?? ""} />
      <label className="block text-sm">
        <span className="text-xs font-medium tracking-wide text-slate-500 uppercase">Assignee</span>
        <select
          name="assigneeId"
          defaultValue={assigneeId ?? ""}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5"
        >
          <option value="">Unassigned (queue)</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50"
        >
          {pending ? "Saving…" : "Save assignee"}
        </button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}

export function ClaimButton({ pullId }: { pullId: string }) {
  const { claim } = usePullActions();
  const [state, action, pending] = useActionState(claim, IDLE);
  return (
    <form action={action} className="flex items-center gap-3">
      <input type="hidden" name="pullId" value={pullId} />
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
      >
        {pending ? "Taking…" : "Take this pull"}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
