"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { FormMessage } from "@/components/ui/form-message";
import type { CarrierLogin } from "@/lib/monitoring/reconnect-carrier";
import type { ReconnectStep } from "@/lib/monitoring/reconnect-page";
import { IDLE, type FormState } from "@/lib/core/form-state";

// The consumer's current step: new credentials, where to send a code, the code, or a wait
// while their insurance company answers. Messages from the carrier are shown as text.

type AnswerStep = Extract<ReconnectStep, { kind: "credentials" | "options" | "code" | "waiting" }>;

const input =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100";
const button =
  "mt-4 w-full rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60";

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

export function ReconnectStepForm({ token, step, carrier, login, action: answer }: Props) {
  const router = useRouter();
  const [state, action, pending] = useActionState(answer, IDLE);
  // An accepted answer moves the page to "waiting"; a refused one may have moved it too.
  useEffect(() => {
    if (state.status !== "idle") router.refresh();
  }, [state, router]);

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
    <form action={action} className="space-y-1" data-testid={`reconnect-step-${step.kind}`}>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="kind" value={step.kind} />
      {step.kind === "credentials" ? (
        <>
          <CarrierMessage message={step.message} />
          <p className="text-sm text-slate-700">Sign in as you do on {carrier}&apos;s website.</p>
          <label className="mt-3 block text-sm font-medium text-slate-800">
            {login.usernameLabel}
            <input name="username" autoComplete="username" required maxLength={500} className={input} />
          </label>
          {login.password ? (
            <label className="mt-3 block text-sm font-medium text-slate-800">
              Password
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                maxLength={500}
                className={input}
              />
            </label>
          ) : null}
          {login.thirdField ? (
            <label className="mt-3 block text-sm font-medium text-slate-800">
              {login.thirdField.label}
              <input name="thirdField" required maxLength={500} className={input} data-testid="reconnect-third-field" />
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
            <input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              maxLength={50}
              className={input}
            />
          </label>
        </>
      )}
      <button type="submit" disabled={pending} className={button}>
        {pending
          ? "Sending…"
          : step.kind === "options"
            ? "Send me a code"
            : step.kind === "code"
              ? "Confirm"
              : "Sign in"}
      </button>
      <div className="mt-2">{state.status === "error" ? <FormMessage state={state} /> : null}</div>
    </form>
  );
}
