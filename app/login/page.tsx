import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { getSessionUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic"; // it checks for an existing session



// Only same-site paths are followed after login, so the link cannot send a user elsewhere.
function safeCallback(value: string | string[] | undefined): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  // "/\\host" is read by browsers as "//host", another site; "/" sends each role to its start page.
  return candidate && candidate.startsWith("/") && !candidate.startsWith("//") && !candidate.startsWith("/\\") ? candidate : "/";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  if (await getSessionUser()) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold text-brand-900">Coverdesk</h1>
        <p className="mt-1 text-sm text-slate-600">Sign in to see your linked accounts.</p>
        <LoginForm callbackUrl={callbackUrl} />
      </div>
    </main>
  );
}
