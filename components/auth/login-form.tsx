"use client";

import { startAuthentication } from "@simplewebauthn/browser";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { DemoLogin } from "@/lib/loaders/login";
import { humanize } from "@/lib/format";
import {
  asksForCode,
  CODE_REFUSED_ERROR,
  CODE_REQUIRED_ERROR,
  NO_PASSKEY_MESSAGE,
  PASSKEY_CANCELLED_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  signInErrorMessage,
} from "@/lib/security/sign-in-errors";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** `demo`: the demo logins (development and tests only), each offered as a one-click button. */
export function LoginForm({
  callbackUrl,
  demo = null,
}: {
  callbackUrl: string;
  demo?: { users: DemoLogin[]; password: string } | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // The second step (an account with an authenticator app): the email and password stay here,
  // in the form's memory, and go again with the code; never in the address.
  const [second, setSecond] = useState<{ email: string; password: string } | null>(null);
  const [recovery, setRecovery] = useState(false);

  async function signInWith(email: string, password: string, factor?: { code?: string; passkey?: string }) {
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email, password, ...factor, redirect: false });
    if (!result || result.error) {
      setPending(false);
      if (asksForCode(result?.error)) setSecond({ email, password });
      // Asked for the code the first time: the code field says so; no error to show yet.
      if (factor?.passkey && result?.error === CODE_REFUSED_ERROR) setError(PASSKEY_REFUSED_MESSAGE);
      else setError(second || result?.error !== CODE_REQUIRED_ERROR ? signInErrorMessage(result?.error) : null);
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  }

  // The second step with a passkey: the options for this account (the password goes again, as
  // for the code), the browser's prompt, then sign-in with what the passkey signed.
  async function signInWithPasskey(email: string, password: string) {
    setPending(true);
    setError(null);
    const answer = await fetch("/api/sign-in/passkey", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }).catch(() => null);
    const body = (await answer?.json().catch(() => null)) as { options?: unknown; error?: string } | null;
    if (!answer?.ok || !body?.options) {
      setPending(false);
      setError(answer?.status === 404 ? NO_PASSKEY_MESSAGE : signInErrorMessage(body?.error));
      return;
    }
    let passkey: string;
    try {
      passkey = JSON.stringify(
        await startAuthentication({
          optionsJSON: body.options as Parameters<typeof startAuthentication>[0]["optionsJSON"],
        }),
      );
    } catch {
      setPending(false);
      setError(PASSKEY_CANCELLED_MESSAGE);
      return;
    }
    await signInWith(email, password, { passkey });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (second) void signInWith(second.email, second.password, { code: String(form.get("code") ?? "") });
    else void signInWith(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
  }

  if (second) {
    return (
      <form onSubmit={onSubmit} className="mt-6 space-y-4" aria-label="Second step: authenticator code">
        <p className="text-sm text-slate-700">
          {recovery
            ? "Enter one of the recovery codes you saved when you set up your authenticator app. Each works once."
            : "Open your authenticator app and enter the 6-digit code it shows for Coverdesk."}
        </p>
        <div>
          <label htmlFor="code" className="block text-sm font-medium text-slate-700">
            {recovery ? "Recovery code" : "Authentication code"}
          </label>
          <Input
            key={recovery ? "recovery" : "totp"}
            id="code"
            name="code"
            type="text"
            autoComplete="one-time-code"
            inputMode={recovery ? "text" : "numeric"}
            pattern={recovery ? undefined : "[0-9 ]{6,7}"}
            maxLength={recovery ? 20 : 7}
            required
            autoFocus
            large
          />
        </div>
        <SignInError message={error} />
        <Button type="submit" size="lg" disabled={pending} className="w-full">
          {pending ? "Checking…" : "Continue"}
        </Button>
        <Button
          type="button"
          variant="secondary"
          size="lg"
          disabled={pending}
          className="w-full"
          onClick={() => void signInWithPasskey(second.email, second.password)}
        >
          Use a passkey instead
        </Button>
        <div className="flex justify-between text-sm">
          <Button type="button" variant="link" size="inline" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Use the app's code" : "Use a recovery code"}
          </Button>
          <Button
            type="button"
            variant="link"
            size="inline"
            onClick={() => {
              setSecond(null);
              setRecovery(false);
              setError(null);
            }}
          >
            Start over
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate={false}>
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-700">
          Email
        </label>
        <Input id="email" name="email" type="email" autoComplete="username" required large />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <Input id="password" name="password" type="password" autoComplete="current-password" required large />
      </div>
      <SignInError message={error} />
      <Button type="submit" size="lg" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      {demo && demo.users.length > 0 ? (
        <div
          role="group"
          aria-labelledby="demo-logins"
          className="border-t border-slate-200 pt-4"
          data-testid="demo-logins"
        >
          <p id="demo-logins" className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            Demo users: one click signs in
          </p>
          <div className="mt-2 grid gap-2">
            {demo.users.map((user) => (
              <Button
                key={user.email}
                variant="secondary"
                disabled={pending}
                onClick={() => void signInWith(user.email, demo.password)}
                className="flex items-baseline justify-between text-left"
              >
                <span className="font-medium text-slate-900">{user.name}</span>
                <span className="text-xs text-slate-600">{humanize(user.role)}</span>
              </Button>
            ))}
          </div>
        </div>
      ) : null}
    </form>
  );
}

/** Why the last attempt was refused, announced as it appears; nothing before the first attempt. */
function SignInError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {message}
    </p>
  );
}
