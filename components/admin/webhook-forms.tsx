"use client";

import type { FormAction } from "@/lib/core/form-state";
import { ActionForm } from "@/components/ui/action-form";

// The admin's webhook buttons: send one delivery again, delete an endpoint. The actions come
// from the page as props.

export function ResendDeliveryForm({ id, action }: { id: string; action: FormAction }) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="secondary"
      submitSize="sm"
      submitLabel="Resend"
      pendingLabel="Queuing…"
    >
      <input type="hidden" name="id" value={id} />
      <span className="sr-only">Resend the delivery {id}</span>
    </ActionForm>
  );
}

export function DeleteEndpointForm({ id, url, action }: { id: string; url: string; action: FormAction }) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="danger"
      submitSize="sm"
      submitLabel="Delete endpoint"
      pendingLabel="Deleting…"
    >
      <input type="hidden" name="id" value={id} />
      <span className="sr-only">Delete the endpoint {url}</span>
    </ActionForm>
  );
}
