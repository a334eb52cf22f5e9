import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { TabLink } from "@/components/ui/tab-link";
import { IncidentFilters } from "@/components/privacy/incident-filters";
import { IncidentScopeView } from "@/components/privacy/incident-scope-view";
import { RedisclosureLog } from "@/components/privacy/redisclosure-log";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { loadIncidentPage } from "@/lib/loaders/incident";

export const metadata: Metadata = { title: "Incident" };

// GET /admin/incident — who saw which consumers (by state of residence), and the DPPA redisclosure log (?view=log).
export default async function IncidentPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission("incident:view");
  const page = await loadIncidentPage(await getDb(), await searchParams);
  return (
    <div className="space-y-4">
      <PageHeader
        title="Incident"
        description="Whose data a user, a session or an address saw in a window, by state of residence; and every disclosure of driver data."
      />
      <nav aria-label="Incident views" className="flex gap-2 text-sm">
        <TabLink href="/admin/incident" current={page.view === "scope"}>
          Incident scope
        </TabLink>
        <TabLink href="/admin/incident?view=log" current={page.view === "log"}>
          Redisclosure log
        </TabLink>
      </nav>
      {page.view === "log" ? (
        <RedisclosureLog rows={page.log} csvHref="/api/admin/redisclosures/csv" />
      ) : (
        <>
          <Card as="div">
            <IncidentFilters
              fields={page.request.fields}
              people={page.people}
              refusal={
                page.request.status === "refused" ? { message: page.request.message, field: page.request.field } : null
              }
            />
          </Card>
          {page.scope ? <IncidentScopeView scope={page.scope} csvHref={page.csvHref} /> : null}
        </>
      )}
    </div>
  );
}
