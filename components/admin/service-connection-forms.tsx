"use client";

import { useActionState } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { IDLE, type FormAction, type FormState } from "@/lib/core/form-state";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";

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
  const [state, submit, pending] = useActionState(action, IDLE);
  if (registered && state.status === "idle") return null;
  return (
    <form action={submit} className="space-y-2" aria-label="Register Coverdesk's webhook address">
      {registered ? null : (
        <>
          <p className="text-sm text-slate-700">
            Register <code className="break-all">{hookUrl}</code> for every event the service lets Coverdesk set.
          </p>
          <Button type="submit" disabled={pending}>
            {pending ? "Registering…" : "Register this address"}
          </Button>
        </>
      )}
      <FormMessage state={state} />
    </form>
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
