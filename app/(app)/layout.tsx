import { FailedSignInsNotice } from "@/components/auth/failed-sign-ins-notice";
import { AppHeader } from "@/components/layout/app-header";
import { DemoHistoryBanner } from "@/components/layout/demo-history-banner";
import { ServiceHealthBanner } from "@/components/service-health/service-health-banner";
import { getDb } from "@/lib/database";
import { requireUserWhileEnrolling } from "@/lib/auth/session";
import { loadAppShell } from "@/lib/loaders/app-shell";

// Pages here depend on who is asking: never prerendered at build time.
export const dynamic = "force-dynamic";

// Every page in this group needs a signed-in user; the pages check their own permissions too
// (the session is read once per request, however many of them ask). A user who must first set up
// a second factor gets the bare header around the one page they may open (every other page sends
// them there: lib/auth/session.ts requireUser).
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const { user, mustEnrol } = await requireUserWhileEnrolling();
  if (mustEnrol)
    return (
      <>
        <AppHeader user={user} newAssignments={0} openAlerts={0} enrolling />
        <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
      </>
    );
  const shell = await loadAppShell(await getDb(), user);
  return (
    <>
      <AppHeader user={user} newAssignments={shell.newAssignments} openAlerts={shell.openAlerts} />
      <main className="mx-auto max-w-7xl px-4 py-6">
        {shell.demoHistory ? <DemoHistoryBanner progress={shell.demoHistory} /> : null}
        <ServiceHealthBanner initiallyUnreachable={shell.serviceUnreachable} />
        <FailedSignInsNotice total={shell.failedSignIns.total} recent={shell.failedSignIns.recent} />
        {children}
      </main>
    </>
  );
}
