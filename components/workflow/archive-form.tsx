"use client";

import { useActionState } from "react";
import { IDLE } from "@/lib/workflow/form-state";
import type { ArchiveState } from "@/lib/pulls/pull-page";
import { FormMessage } from "./form-message";
import { usePullActions } from "./pull-actions";

// Archive or restore a linked account (managers and admins). The service is told too; when it
// cannot be, the page says so until the sync has told it.

export function ArchiveForm({ pullId, archive }: { pullId: string; archive: ArchiveState }) {
  const { archive: archiveAction } = usePullActions();
  const [state, action, pending] = useActionState(archiveAction, IDLE);
  return (
    <form action={action} className="space-y-2" aria-label="Archive">
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="archived" value={archive.archived ? "false" : "true"} />
      <p className="text-sm text-slate-700" data-testid="archive-state">
        {archive.archived
          ? "Archived: left out of the lists unless they ask for archived accounts."
          : "Archiving leaves the account out of the lists; it is kept and can be restored."}
        {archive.pending?.parked
          ? ` The service refused the change (${archive.pending.lastError ?? "no reason given"}); its own copy stays as it was.`
          : archive.pending
            ? " The service has not been told yet; Coverdesk tells it with the next sync."
            : ""}
      </p>
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50"
        >
          {pending ? "Saving…" : archive.archived ? "Restore from archive" : "Archive"}
        </button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
