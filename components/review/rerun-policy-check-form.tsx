"use client";

import { useActionState } from "react";
import { FormMessage } from "@/components/workflow/form-message";
import { IDLE, type FormAction } from "@/lib/workflow/form-state";

// "Run the check again": the team's current rules, run by the service on this pull now. The
// page passes the action (app/(app)/pulls/[pullId]/actions.ts); the new results are rendered by
// the server once the page revalidates.

export function RerunPolicyCheckForm({ action: rerun, pullId }: { action: FormAction; pullId: string }) {
  const [state, action, pending] = useActionState(rerun, IDLE);
  return (
    <form action={action} className="space-y-1">
      <input type="hidden" name="pullId" value={pullId} />
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
      >
        {pending ? "Running the check…" : "Run the check again"}
      </button>
      <div aria-live="polite">
        <FormMessage state={state} />
      </div>
    </form>
  );
}
