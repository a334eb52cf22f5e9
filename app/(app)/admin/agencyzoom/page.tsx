import type { Metadata } from "next";
import { AgencyzoomSettingsForm } from "@/components/admin/agencyzoom-settings-form";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { loadAgencyzoomPage } from "@/lib/loaders/agencyzoom";
import { saveAgencyzoomSettingsAction } from "./actions";

export const metadata: Metadata = { title: "AgencyZoom" };
export const dynamic = "force-dynamic";

// GET /admin/agencyzoom — whether AgencyZoom is connected, what its leads assume, who each user is there.
export default async function AgencyzoomPage() {
  await requirePermission("agencyzoom:manage");
  const page = await loadAgencyzoomPage(await getDb(), env().agencyzoom);
  const { connection } = page;
  return (
    <div className="space-y-6">
      <PageHeader
        title="AgencyZoom"
        description={
          <>
            Pulls are sent to the agency&apos;s AgencyZoom as leads from their page. A lead needs a pipeline, a stage, a
            lead source, a country and a user to assign it to, which a pull never has: they are set here. Every change
            is in the audit trail.
          </>
        }
      />
      <Card aria-labelledby="agencyzoom-connection-title" className="space-y-2">
        <h2 id="agencyzoom-connection-title" className="text-lg font-semibold text-slate-900">
          Connection
        </h2>
        <p className="text-sm text-slate-700" data-testid="agencyzoom-connection">
          {connection === null
            ? "AgencyZoom is not configured: AGENCYZOOM_BASE_URL is unset, so the hand-off is off. Set it with AGENCYZOOM_USERNAME and AGENCYZOOM_PASSWORD (docs/handoff.md)."
            : connection.reachable
              ? `Connected to ${connection.host} as ${connection.username}: the pipelines and users below are AgencyZoom's.`
              : `Configured for ${connection.host} as ${connection.username}, but AgencyZoom could not be asked: ${connection.error} The ids below can still be typed.`}
        </p>
      </Card>
      <AgencyzoomSettingsForm
        settings={{
          pipelineId: page.settings.pipelineId,
          stageId: page.settings.stageId,
          leadSourceId: page.settings.leadSourceId,
          country: page.settings.country,
          fallbackAssigneeId: page.settings.fallbackAssigneeId,
          userMap: page.settings.userMap,
        }}
        pipelines={page.pipelines}
        employees={page.employees}
        users={page.users}
        action={saveAgencyzoomSettingsAction}
      />
    </div>
  );
}
