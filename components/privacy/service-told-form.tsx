"use client";

import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/core/form-state";

// After an erasure: the service keeps its own copy. Ticked once the service has been asked to
// delete it and has confirmed; the pull ids kept for that are then forgotten.
export function ServiceToldForm({ action, requestId }: { action: FormAction; requestId: string }) {
  return (
    <ActionForm action={action} submitLabel="Record" pendingLabel="Recording…" data-testid="service-told">
      <input type="hidden" name="requestId" value={requestId} />
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="told" required className="mt-1" />
        The service has been asked to delete its copy, and has confirmed it.
      </label>
    </ActionForm>
  );
}
