import { FailedSignInsNotice } from "@/components/auth/failed-sign-ins-notice";
import { AppHeader } from "@/components/layout/app-header";
import { QueryProvider } from "@/components/providers/query-provider";
import { ServiceHealthBanner } from "@/components/service-health/service-health-banner";
import { getDb } from "@/lib/database";
import { requireUser } from "@/lib/auth/session";
import { isServiceUnreachable } from "@/lib/service/health";
import { failedSignInsSincePreviousSignIn } from "@/lib/workflow/audit";
import { countNewAssignments } from "@/lib/workflow/my-pulls";

// Pages here depend on who is asking: never prerendered at build time.
export const dynamic = "force-dynamic";

// Every page in this group needs a signed-in user; the pages check their own permissions too.
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const db = await getDb();
  const [newAssignments, failedSignIns] = await Promise.all([countNewAssignments(db, user.id), failedSignInsSincePreviousSignIn(db, user.id)]);
  return (
    <>
      <AppHeader user={user} newAssignments={newAssignments} />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <QueryProvider>
          <ServiceHealthBanner initiallyUnreachable={isServiceUnreachable()} />
          <FailedSignInsNotice total={failedSignIns.total} recent={failedSignIns.recent} />
          {children}
        </QueryProvider>
      </main>
    </>
  );
}
