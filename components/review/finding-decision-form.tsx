"use client";

import { startTransition, useActionState, useId } from "react";
import { FormMessage } from "@/components/workflow/form-message";
import { IDLE, type FormAction } from "@/lib/workflow/form-state";

// What the client decided about one finding, with the agent's note: the errors-and-omissions
// record. The page passes the action (app/(app)/pulls/[pullId]/actions.ts); the saved decision,
// with who and when, is rendered by the server once the page revalidates.

const CHOICES = [
  ["ACCEPTED", "Accepted"],
  ["DECLINED", "Declined by client"],
  ["NOT_APPLICABLE", "Not applicable"],
] as const;

type Props = {
  action: FormAction;
  pullId: string;
  findingKey: string;
  title: string;
  decision: string | null;
  note: string;
};

export function FindingDecisionForm({ action: decide, pullId, findingKey, title, decision, note }: Props) {
  const [state, action, pending] = useActionState(decide, IDLE);
  const id = useId();
  const noteError = state.status === "error" && state.field === "note";
  return (
    <form
      action={action}
      // Submitted by hand once hydrated: React resets a form after an `action` submit, which
      // would put the choice back to the old decision while the new one is being saved.
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => action(data));
      }}
      className="space-y-2"
    >
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="findingKey" value={findingKey} />
      <fieldset>
        <legend className="sr-only">The client&apos;s decision on: {title}</legend>
        <div className="flex flex-wrap gap-3 text-sm">
          {CHOICES.map(([value, label]) => (
            <label key={value} className="flex items-center gap-1.5">
              <input type="radio" name="decision" value={value} defaultChecked={decision === value} required />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block text-sm" htmlFor={`${id}-note`}>
        <span className="text-slate-700">Note (what was discussed)</span>
      </label>
      <textarea
        id={`${id}-note`}
        name="note"
        defaultValue={note}
        maxLength={2000}
        rows={2}
        aria-invalid={noteError || undefined}
        className="block w-full max-w-xl rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      />
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
        >
          {pending ? "Saving…" : "Save decision"}
        </button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
