"use client";

import type { FormAction, FormState } from "@/lib/core/form-state";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { Input } from "@/components/ui/input";

// The admin's API key forms: make a key (its secret shown once, in the answer) and revoke one.
// The actions come from the page as props.

type KeyState = FormState & { key?: string };

export function CreateApiKeyForm({
  action,
  scopes,
}: {
  action: (previous: KeyState, formData: FormData) => Promise<KeyState>;
  scopes: Array<{ scope: string; label: string }>;
}) {
  return (
    <ActionForm<KeyState>
      action={action}
      aria-label="Make an API key"
      className={cn(CARD_CLASS, "grid gap-3 p-4 sm:grid-cols-3")}
      messageClassName="sm:col-span-3"
    >
      {({ state, invalid }) => (
        <>
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-xs text-slate-600">Name (the system that will use it)</span>
            <Input name="name" required maxLength={80} placeholder="Zapier" {...invalid("name")} />
          </label>
          <fieldset className="flex flex-col gap-1 text-sm" {...invalid("scopes")}>
            <legend className="text-xs text-slate-600">Scopes</legend>
            {scopes.map(({ scope, label }) => (
              <label key={scope} className="flex items-center gap-2">
                <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === "pulls:read"} />
                <span>
                  <code className="text-xs">{scope}</code> <span className="text-slate-600">{label}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col justify-between gap-3">
            <label className="flex flex-col gap-1 text-sm">
              <span className="text-xs text-slate-600">Calls a minute (default 120)</span>
              <Input name="rateLimitPerMinute" type="number" min={1} max={10000} {...invalid("rateLimitPerMinute")} />
            </label>
            <div>
              <SubmitButton pendingLabel="Making…">Make key</SubmitButton>
            </div>
          </div>
          {state.status === "done" && state.key ? (
            <output
              data-testid="new-api-key"
              className="block rounded border border-amber-300 bg-amber-50 p-2 font-mono text-xs break-all text-slate-900 sm:col-span-3"
            >
              {state.key}
            </output>
          ) : null}
        </>
      )}
    </ActionForm>
  );
}

export function RevokeApiKeyForm({ id, name, action }: { id: string; name: string; action: FormAction }) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="danger"
      submitSize="sm"
      submitLabel="Revoke"
      pendingLabel="Revoking…"
    >
      <input type="hidden" name="id" value={id} />
      <span className="sr-only">Revoke the key {name}</span>
    </ActionForm>
  );
}
