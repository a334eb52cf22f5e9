import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { LoginForm } from "@/components/auth/login-form";
import { loadLoginPage } from "@/lib/loaders/login";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic"; // it checks for an existing session

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { callbackUrl, signedIn, demo } = await loadLoginPage(await searchParams);
  if (signedIn) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <PageHeader title="Coverdesk" description="Sign in to see your linked accounts." tone="brand" />
        <LoginForm callbackUrl={callbackUrl} demo={demo} />
      </div>
    </main>
  );
}
