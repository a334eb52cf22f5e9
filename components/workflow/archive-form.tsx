"use client";

import { ActionForm } from "@/components/ui/action-form";
import type { ArchiveState } from "@/lib/loaders/pull-page";
import { usePullActions } from "./pull-actions";

// Archive or restore a linked account (managers and admins). The service is told too; when it
// cannot be, the page says so until the sync has told it.

export function ArchiveForm({ pullId, archive }: { pullId: string; archive: ArchiveState }) {
  const { archive: archiveAction } = usePullActions();
  return (
    <ActionForm
      action={archiveAction}
      aria-label="Archive"
      submitVariant="secondary"
      pendingLabel="Saving…"
      submitLabel={archive.archived ? "Restore from archive" : "Archive"}
    >
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
    </ActionForm>
  );
}
