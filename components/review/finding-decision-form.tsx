"use client";

import { useId } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Textarea } from "@/components/ui/input";
import type { FormAction } from "@/lib/core/form-state";

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

export function FindingDecisionForm({ action, pullId, findingKey, title, decision, note }: Props) {
  const id = useId();
  return (
    <ActionForm action={action} keepValues submitLabel="Save decision" pendingLabel="Saving…">
      {({ invalid }) => (
        <>
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
          <Textarea
            id={`${id}-note`}
            name="note"
            defaultValue={note}
            maxLength={2000}
            rows={2}
            {...invalid("note")}
            className="block w-full max-w-xl"
          />
        </>
      )}
    </ActionForm>
  );
}
