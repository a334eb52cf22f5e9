"use client";

import { useActionState, useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import { FormMessage } from "@/components/ui/form-message";
import { IDLE, type FormAction } from "@/lib/workflow/form-state";
import { Button } from "@/components/ui/button";

// Hand the consumer a reconnect page, the service's or Coverdesk's: copy the link, or email it.
// The actions come from the page as props.

export function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const hydrated = useHydrated();
  return (
    <Button
      type="button"
      disabled={!hydrated}
      onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
      variant="secondary"
      size="sm"
    >
      {copied ? "Copied" : "Copy link"}
    </Button>
  );
}

/** One button that runs a reconnect-link action for an account and says how it went. */
function LinkActionButton({
  action: run,
  monitoringId,
  label,
  pendingLabel,
}: {
  action: FormAction;
  monitoringId: string;
  label: string;
  pendingLabel: string;
}) {
  const [state, action, pending] = useActionState(run, IDLE);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="monitoringId" value={monitoringId} />
      <Button type="submit" disabled={pending} variant="secondary" size="sm">
        {pending ? pendingLabel : label}
      </Button>
      <FormMessage state={state} />
    </form>
  );
}

export function RenewLink({ monitoringId, action }: { monitoringId: string; action: FormAction }) {
  return (
    <LinkActionButton action={action} monitoringId={monitoringId} label="Get a fresh link" pendingLabel="Asking…" />
  );
}

export function MakeCoverdeskPage({ monitoringId, action }: { monitoringId: string; action: FormAction }) {
  return (
    <LinkActionButton
      action={action}
      monitoringId={monitoringId}
      label="Make a Coverdesk page"
      pendingLabel="Making…"
    />
  );
}

/** A link to send by email: the consumer's address, a subject, and the link in plain words. */
export function EmailLink({ email, url }: { email: string; url: string }) {
  const body = `Your insurance account needs you to sign in again so we can keep your coverage up to date: ${url}`;
  return (
    <a
      href={`mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent("Please reconnect your insurance account")}&body=${encodeURIComponent(body)}`}
      className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-100"
    >
      Email it
    </a>
  );
}
