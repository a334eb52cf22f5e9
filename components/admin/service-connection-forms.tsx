"use client";

import { useState } from "react";
import type { FormAction, FormState } from "@/lib/core/form-state";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";

// The two writes of the Service connection page. The actions come from the page as props, so
// this file knows nothing of routes.

/** Stays mounted once the address is registered (`registered`), so its answer outlives the page's refresh. */
export function RegisterWebhookForm({
  action,
  hookUrl,
  registered,
}: {
  action: (previous: FormState) => Promise<FormState>;
  hookUrl: string;
  registered: boolean;
}) {
  // Kept mounted (hidden) while there is nothing to show, so the answer survives the page's refresh.
  const [answered, setAnswered] = useState(false);
  return (
    <ActionForm
      action={action}
      onAnswer={() => setAnswered(true)}
      hidden={registered && !answered}
      aria-label="Register Coverdesk's webhook address"
    >
      {registered ? null : (
        <>
          <p className="text-sm text-slate-700">
            Register <code className="break-all">{hookUrl}</code> for every event the service lets Coverdesk set.
          </p>
          <SubmitButton pendingLabel="Registering…">Register this address</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function WebhookToggle({
  action,
  webhookId,
  active,
}: {
  action: FormAction;
  webhookId: string;
  active: boolean;
}) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="secondary"
      submitLabel={active ? "Pause deliveries" : "Resume deliveries"}
    >
      <input type="hidden" name="webhookId" value={webhookId} />
      <input type="hidden" name="active" value={active ? "false" : "true"} />
    </ActionForm>
  );
}
