"use client";

import Link from "next/link";
import type { FormAction } from "@/lib/core/form-state";
import type { RecoveryCodesState } from "@/lib/auth/second-factor";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import { LINK_CLASS } from "@/components/ui/link-class";

// The forms of one's own second factor (the page hands each its server action).

/** The code field: six digits from the app (or, to turn it off, a recovery code). */
function CodeInput({ label, recoveryToo = false }: { label: string; recoveryToo?: boolean }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-xs text-slate-600">{label}</span>
      <Input
        name="code"
        type="text"
        autoComplete="one-time-code"
        inputMode={recoveryToo ? "text" : "numeric"}
        required
        maxLength={recoveryToo ? 20 : 7}
        className="w-44"
      />
    </label>
  );
}

export function StartSecondFactorForm({ action, again = false }: { action: FormAction; again?: boolean }) {
  return (
    <ActionForm
      action={action}
      errorsOnly
      submitVariant={again ? "secondary" : "primary"}
      submitLabel={again ? "Start again with a new QR code" : "Set up an authenticator app"}
    />
  );
}

/** Recovery codes, shown once, right after they are made. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2" data-testid="recovery-codes">
      <p className="text-sm text-slate-800">
        Your recovery codes. Each signs you in once when your phone is not at hand. Save them somewhere safe now: they
        are not shown again.
      </p>
      <ol className="grid grid-cols-2 gap-1 font-mono text-sm sm:w-80">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Link href="/account/security" className={LINK_CLASS}>
        I have saved them
      </Link>
    </div>
  );
}

type RecoveryCodesAction = (previous: RecoveryCodesState, formData: FormData) => Promise<RecoveryCodesState>;

/** New recovery codes for a confirmed app, given a current code; the old ones stop working. */
export function RenewRecoveryCodesForm({ action }: { action: RecoveryCodesAction }) {
  return (
    <ActionForm action={action} aria-label="Make new recovery codes">
      {({ state }) =>
        state.status === "done" && "recoveryCodes" in state ? (
          <RecoveryCodes codes={state.recoveryCodes} />
        ) : (
          <div className="flex flex-wrap items-end gap-2">
            <CodeInput label="A current code (or a recovery code)" recoveryToo />
            <SubmitButton variant="secondary" pendingLabel="Making…">
              Make new recovery codes
            </SubmitButton>
          </div>
        )
      }
    </ActionForm>
  );
}

export function ConfirmSecondFactorForm({ action }: { action: RecoveryCodesAction }) {
  return (
    <ActionForm action={action} aria-label="Confirm your authenticator app">
      {({ state }) =>
        state.status === "done" && "recoveryCodes" in state ? (
          <RecoveryCodes codes={state.recoveryCodes} />
        ) : (
          <>
            <CodeInput label="The 6-digit code your app shows" />
            <SubmitButton pendingLabel="Checking…">Confirm</SubmitButton>
          </>
        )
      }
    </ActionForm>
  );
}

export function RemoveSecondFactorForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} aria-label="Turn off the authenticator app" inline>
      <CodeInput label="A current code (or a recovery code)" recoveryToo />
      <SubmitButton variant="danger" pendingLabel="Turning off…" className="self-end">
        Turn off
      </SubmitButton>
    </ActionForm>
  );
}
