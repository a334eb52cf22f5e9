"use client";

import { useActionState, useState } from "react";
import { renewReconnectLinkAction } from "@/app/(app)/reconnect/actions";
import { FormMessage } from "@/components/workflow/form-message";
import { IDLE } from "@/lib/workflow/form-state";

// Hand the consumer the service's hosted reconnect page: copy the link, or email it.

export function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
      className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-100"
    >
      {copied ? "Copied" : "Copy link"}
    </button>
  );
}

export function RenewLink({ monitoringId }: { monitoringId: string }) {
  const [state, action, pending] = useActionState(renewReconnectLinkAction, IDLE);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="monitoringId" value={monitoringId} />
      <button type="submit" disabled={pending} className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-100 disabled:opacity-50">{pending ? "Asking…" : "Get a fresh link"}</button>
      <FormMessage state={state} />
    </form>
  );
}
