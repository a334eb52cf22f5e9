"use client";

import { useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ActionForm } from "@/components/ui/action-form";
import { Button, buttonClass } from "@/components/ui/button";
import type { FormAction } from "@/lib/core/form-state";

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
  action,
  monitoringId,
  label,
  pendingLabel,
}: {
  action: FormAction;
  monitoringId: string;
  label: string;
  pendingLabel: string;
}) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="secondary"
      submitSize="sm"
      submitLabel={label}
      pendingLabel={pendingLabel}
    >
      <input type="hidden" name="monitoringId" value={monitoringId} />
    </ActionForm>
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

export function WithdrawCoverdeskPage({ monitoringId, action }: { monitoringId: string; action: FormAction }) {
  return (
    <LinkActionButton action={action} monitoringId={monitoringId} label="Withdraw link" pendingLabel="Withdrawing…" />
  );
}

/** A link to send by email: the consumer's address, a subject, and the link in plain words. */
export function EmailLink({ email, url }: { email: string; url: string }) {
  const body = `Your insurance account needs you to sign in again so we can keep your coverage up to date: ${url}`;
  return (
    <a
      href={`mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent("Please reconnect your insurance account")}&body=${encodeURIComponent(body)}`}
      className={buttonClass({ variant: "secondary", size: "sm" })}
    >
      Email it
    </a>
  );
}
