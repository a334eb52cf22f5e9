"use client";

import { useRouter } from "next/navigation";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import type { CarrierLogin } from "@/lib/monitoring/reconnect-carrier";
import type { ReconnectStep } from "@/lib/monitoring/reconnect-page";
import type { FormState } from "@/lib/core/form-state";

// The consumer's current step: new credentials, where to send a code, the code, or a wait
// while their insurance company answers. Messages from the carrier are shown as text.

type AnswerStep = Extract<ReconnectStep, { kind: "credentials" | "options" | "code" | "waiting" }>;

function CarrierMessage({ message }: { message: string | null }) {
  return message ? (
    <p
      role="alert"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="reconnect-message"
    >
      {message}
    </p>
  ) : null;
}

type Props = {
  token: string;
  step: AnswerStep;
  carrier: string;
  login: CarrierLogin;
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
};

export function ReconnectStepForm({ token, step, carrier, login, action }: Props) {
  const router = useRouter();

  if (step.kind === "waiting") {
    return (
      <div
        role="status"
        aria-live="polite"
        className="flex items-center gap-3 text-slate-700"
        data-testid="reconnect-waiting"
      >
        <span
          className="h-4 w-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
          aria-hidden="true"
        />
        <span>
          {step.slow
            ? "This is taking longer than usual. Keep this page open; it moves on by itself."
            : `Checking with ${carrier}…`}
        </span>
      </div>
    );
  }
  return (
    <ActionForm
      action={action}
      // An accepted answer moves the page to "waiting"; a refused one may have moved it too.
      onAnswer={() => router.refresh()}
      errorsOnly
      messageClassName="mt-2"
      className="space-y-1"
      data-testid={`reconnect-step-${step.kind}`}
    >
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="kind" value={step.kind} />
      {step.kind === "credentials" ? (
        <>
          <CarrierMessage message={step.message} />
          <p className="text-sm text-slate-700">Sign in as you do on {carrier}&apos;s website.</p>
          <label className="mt-3 block text-sm font-medium text-slate-800">
            {login.usernameLabel}
            <Input name="username" autoComplete="username" required maxLength={500} large />
          </label>
          {login.password ? (
            <label className="mt-3 block text-sm font-medium text-slate-800">
              Password
              <Input name="password" type="password" autoComplete="current-password" required maxLength={500} large />
            </label>
          ) : null}
          {login.thirdField ? (
            <label className="mt-3 block text-sm font-medium text-slate-800">
              {login.thirdField.label}
              <Input name="thirdField" required maxLength={500} large data-testid="reconnect-third-field" />
            </label>
          ) : null}
          {login.resetPasswordUrl && login.password ? (
            <p className="mt-2 text-sm">
              <a
                href={login.resetPasswordUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="text-brand-700 underline"
              >
                Forgot your password? Reset it on {carrier}&apos;s website
              </a>
            </p>
          ) : null}
        </>
      ) : step.kind === "options" ? (
        <fieldset>
          <legend className="text-sm text-slate-700">
            {carrier} needs to confirm it is you. Where should it send a code?
          </legend>
          <div className="mt-3 space-y-2">
            {step.options.map((option, index) => (
              <label
                key={option.key}
                className="flex items-center gap-2 rounded-md border border-slate-200 p-3 text-sm hover:bg-slate-50"
              >
                <input type="radio" name="optionKey" value={option.key} defaultChecked={index === 0} required />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <>
          <CarrierMessage message={step.message} />
          <label className="block text-sm font-medium text-slate-800">
            Enter the code {carrier} sent you
            <Input name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={50} large />
          </label>
        </>
      )}
      <SubmitButton size="lg" className="mt-4 w-full" pendingLabel="Sending…">
        {step.kind === "options" ? "Send me a code" : step.kind === "code" ? "Confirm" : "Sign in"}
      </SubmitButton>
    </ActionForm>
  );
}
