import type { Metadata } from "next";
import { RegisterWebhookForm, WebhookToggle } from "@/components/admin/service-connection-forms";
import { ServiceEventTypes } from "@/components/admin/service-event-types";
import { ReplicaLagTable } from "@/components/admin/replica-lag";
import { UnavailablePart } from "@/components/admin/unavailable-part";
import { DataTable } from "@/components/ui/data-table";
import { requirePermission } from "@/lib/auth/session";
import { getDb, getReplicaSet } from "@/lib/database";
import { env } from "@/lib/env";
import { loadServiceConnectionPage } from "@/lib/loaders/service-connection";
import { API_SETTABLE_WEBHOOK_EVENT_TYPES } from "@/lib/service/schemas";
import { humanize } from "@/lib/format";
import { registerWebhookAction, setWebhookActiveAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Service connection" };

export default async function ServiceConnectionPage() {
  await requirePermission("service:manage");
  const { view, registered, replicas } = await loadServiceConnectionPage(await getDb(), env(), getReplicaSet());

  return (
    <div className="space-y-6">
      <PageHeader
        title="Service connection"
        description={
          <>
            The data-link service at <code className="break-all">{view.baseUrl}</code>, team <code>{view.teamId}</code>.
          </>
        }
      />

      <Card aria-labelledby="health">
        <h2 id="health" className="text-lg font-medium text-slate-900">
          Health
        </h2>
        {view.health.ok ? (
          <p data-testid="service-health" className={view.health.value.healthy ? "text-emerald-700" : "text-red-700"}>
            {view.health.value.healthy
              ? "The service says it is healthy."
              : "The service says it is not healthy: links and refreshes may fail until it recovers."}
          </p>
        ) : (
          <UnavailablePart part={view.health} />
        )}
      </Card>

      <Card aria-labelledby="links" className="space-y-2">
        <h2 id="links" className="text-lg font-medium text-slate-900">
          The team&apos;s links
        </h2>
        <p className="text-sm text-slate-600">
          Where consumers link their accounts (the service calls them widgets); each pull names the link it came
          through.
        </p>
        <UnavailablePart part={view.links} />
        {view.links.ok ? (
          <DataTable
            label="Links"
            testId="service-links"
            rows={view.links.value}
            rowKey={(link) => link.widgetId}
            empty={
              <p className="text-sm text-slate-600">
                The team has no links yet: create one in the service&apos;s dashboard.
              </p>
            }
            columns={[
              {
                header: "Link",
                cell: (link) => (
                  <>
                    {link.name}
                    {link.isSandbox ? (
                      <span className="ml-2 rounded bg-slate-100 px-1 text-xs text-slate-600">sandbox</span>
                    ) : null}
                  </>
                ),
              },
              { header: "Alias", cell: (link) => link.publicAlias ?? "—" },
              { header: "Address", className: "break-all", cell: (link) => link.publicUrl ?? "—" },
              { header: "Agents", numeric: true, cell: (link) => link.agents },
            ]}
          />
        ) : null}
      </Card>

      <Card aria-labelledby="webhooks" className="space-y-3">
        <h2 id="webhooks" className="text-lg font-medium text-slate-900">
          Webhooks
        </h2>
        <p className="text-sm text-slate-600">
          Coverdesk receives events at <code className="break-all">{view.hookUrl}</code>
          {view.checksSignatures ? (
            <>
              , and checks each signature against the signing secrets the service lists for the team&apos;s webhooks,
              those made on its dashboard included.
            </>
          ) : (
            <strong className="text-amber-800">
              , but does not check signatures: this is not production and no SERVICE_WEBHOOK_SECRET is set.
            </strong>
          )}
        </p>
        <UnavailablePart part={view.webhooks} />
        {view.webhooks.ok ? (
          <DataTable
            label="Webhooks"
            testId="service-webhooks"
            rows={view.webhooks.value}
            rowKey={(hook) => hook.webhookId}
            empty={<p className="text-sm text-slate-600">No webhook is registered for this team yet.</p>}
            columns={[
              {
                header: "Address",
                className: "break-all",
                cell: (hook) => (
                  <>
                    {hook.url}
                    {hook.ours ? (
                      <span className="text-brand-800 ml-2 rounded bg-brand-50 px-1 text-xs">this Coverdesk</span>
                    ) : null}
                  </>
                ),
              },
              { header: "Events", cell: (hook) => hook.eventTypes.map(humanize).join(", ") || "—" },
              { header: "State", cell: (hook) => (hook.isActive === false ? "Paused" : "Active") },
              {
                header: "Actions",
                hideHeader: true,
                cell: (hook) =>
                  hook.ours ? (
                    <WebhookToggle
                      action={setWebhookActiveAction}
                      webhookId={hook.webhookId}
                      active={hook.isActive !== false}
                    />
                  ) : null,
              },
            ]}
          />
        ) : null}
        {view.webhooks.ok ? (
          <RegisterWebhookForm action={registerWebhookAction} hookUrl={view.hookUrl} registered={registered} />
        ) : null}
        <p className="text-sm text-slate-600">
          Through its API the service lets Coverdesk choose only{" "}
          {API_SETTABLE_WEBHOOK_EVENT_TYPES.map(humanize).join(", ")}. The other events Coverdesk uses (errors,
          monitoring events, reconnect requests, data updates, servicing) are switched on in the service&apos;s own
          dashboard, for the same address.
        </p>
      </Card>

      <Card aria-labelledby="replicas" className="space-y-3">
        <h2 id="replicas" className="text-lg font-medium text-slate-900">
          Database replicas
        </h2>
        <p className="text-sm text-slate-600">
          Reports, their CSV files, the X-date and cross-sell lists and the refresh forecast read from a replica that
          has replayed the reader&apos;s own last change; everything else reads the primary. A replica behind by more
          than a few seconds, or unreachable, is worth a look: reads then go to the primary.
        </p>
        <ReplicaLagTable replicas={replicas} />
      </Card>

      <Card aria-labelledby="event-types" className="space-y-3">
        <h2 id="event-types" className="text-lg font-medium text-slate-900">
          Events
        </h2>
        <p className="text-sm text-slate-600">
          Which events the team&apos;s webhooks ask for, and when each last reached Coverdesk. The service may not list
          what its dashboard switched on, so an event that has arrived is the surest sign it is on.
        </p>
        <ServiceEventTypes events={view.events} hookUrl={view.hookUrl} />
      </Card>
    </div>
  );
}
