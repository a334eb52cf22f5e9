import { AppHeader } from "@/components/layout/app-header";
import { QueryProvider } from "@/components/providers/query-provider";
import { requireUser } from "@/lib/auth/session";

// Pages here depend on who is asking: never prerendered at build time.
export const dynamic = "force-dynamic";

// Every page in this group needs a signed-in user; the pages check their own permissions too.
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <>
      <AppHeader user={user} />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <QueryProvider>{children}</QueryProvider>
      </main>
    </>
  );
}
