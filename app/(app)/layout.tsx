import { AppHeader } from "@/components/layout/app-header";
import { QueryProvider } from "@/components/providers/query-provider";
import { ServiceHealthBanner } from "@/components/service-health/service-health-banner";
import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { isServiceUnreachable } from "@/lib/service/health";
import { countNewAssignments } from "@/lib/workflow/my-pulls";

// Pages here depend on who is asking: never prerendered at build time.
export const dynamic = "force-dynamic";

// Every page in this group needs a signed-in user; the pages check their own permissions too.
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const newAssignments = await countNewAssignments(await getDb(), user.id);
  return (
    <>
      <AppHeader user={user} newAssignments={newAssignments} />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <QueryProvider>
          <ServiceHealthBanner initiallyUnreachable={isServiceUnreachable()} />
          {children}
        </QueryProvider>
      </main>
    </>
  );
}
