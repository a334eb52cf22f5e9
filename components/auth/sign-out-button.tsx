"use client";

import { useHydrated } from "@/components/ui/use-hydrated";
import { Button } from "@/components/ui/button";

// Signs out as next-auth's own client does (a CSRF token, then a POST to its sign-out
// endpoint), without loading next-auth/react into every page for one button.
async function signOut(callbackUrl: string): Promise<void> {
  const { csrfToken } = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as { csrfToken: string };
  const response = await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }),
  });
  const { url } = (await response.json().catch(() => ({}))) as { url?: string };
  window.location.href = url ?? callbackUrl;
}

export function SignOutButton() {
  const hydrated = useHydrated();
  return (
    <Button
      type="button"
      disabled={!hydrated}
      onClick={() => void signOut("/login")}
      variant="secondary"
      className="text-slate-700"
    >
      Sign out
    </Button>
  );
}
