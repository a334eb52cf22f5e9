"use client";

import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/core/form-state";

// "Run the check again": the team's current rules, run by the service on this pull now. The
// page passes the action (app/(app)/pulls/[pullId]/actions.ts); the new results are rendered by
// the server once the page revalidates.

export function RerunPolicyCheckForm({ action, pullId }: { action: FormAction; pullId: string }) {
  return (
    <ActionForm
      action={action}
      className="space-y-1"
      submitVariant="secondary"
      submitLabel="Run the check again"
      pendingLabel="Running the check…"
    >
      <input type="hidden" name="pullId" value={pullId} />
    </ActionForm>
  );
}
