"use client";

import { startRegistration } from "@simplewebauthn/browser";
import type { FormAction, FormState } from "@/lib/core/form-state";
import type { PasskeyOptionsAnswer } from "@/lib/auth/passkeys";
import { PASSKEY_CANCELLED_MESSAGE } from "@/lib/security/sign-in-errors";
import { ActionForm } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";

// The forms of one's own passkeys (the page hands each its server actions). Adding one is three
// steps behind one button: the server's options, the browser's own prompt (fingerprint, face,
// security key), and the server checking what the browser made.

export function AddPasskeyForm({
  start,
  register,
}: {
  start: () => Promise<PasskeyOptionsAnswer>;
  register: FormAction;
}) {
  async function add(previous: FormState, formData: FormData): Promise<FormState> {
    const answer = await start();
    if (!answer.ok) return { status: "error", message: answer.message };
    try {
      formData.set("response", JSON.stringify(await startRegistration({ optionsJSON: answer.options })));
    } catch {
      return { status: "error", message: PASSKEY_CANCELLED_MESSAGE };
    }
    return register(previous, formData);
  }
  return (
    <ActionForm
      action={add}
      inline
      submitLabel="Add a passkey"
      pendingLabel="Waiting for your passkey…"
      aria-label="Add a passkey"
    >
      {({ invalid }) => (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-xs text-slate-600">Its name, to tell it from others</span>
          <Input
            name="name"
            required
            maxLength={60}
            placeholder="Work laptop"
            autoComplete="off"
            className="w-56"
            {...invalid("name")}
          />
        </label>
      )}
    </ActionForm>
  );
}

export function RemovePasskeyForm({
  passkeyId,
  name,
  action,
}: {
  passkeyId: string;
  name: string;
  action: FormAction;
}) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="danger"
      submitLabel="Remove"
      aria-label={`Remove the passkey ${name}`}
    >
      <input type="hidden" name="passkeyId" value={passkeyId} />
    </ActionForm>
  );
}
