import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeleteEndpointForm, ResendDeliveryForm } from "@/components/admin/webhook-forms";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { loadWebhooksPage } from "@/lib/loaders/webhooks";
import { deleteEndpointAction, resendDeliveryAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

const STATUS_TONE = { DELIVERED: "success", PENDING: "warning", FAILED: "danger" } as const;

export default async function WebhooksPage() {
  const user = await requirePermission("webhooks:manage");
  const page = await loadWebhooksPage(await getDb(), user);
  if (!page.ok) notFound();
  return (
    <div className="space-y-4">
      <PageHeader
        title="Webhooks"
        description="Endpoints other systems registered through the API (POST /api/v1/webhook-endpoints) to hear of new pulls, stage changes, assignments and alerts, each with its latest deliveries. Failed deliveries are retried for about a day; Resend sends one again now."
      />
      {page.endpoints.length === 0 ? (
        <p className="text-sm text-slate-600">
          No endpoints yet. A system with an API key holding <code>webhooks:write</code> registers one (see
          docs/api.md).
        </p>
      ) : null}
      {page.endpoints.map((endpoint) => (
        <Card key={endpoint.id} padded className="space-y-3" data-testid="webhook-endpoint">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <div className="font-mono text-sm break-all text-slate-900">{endpoint.url}</div>
              <div className="text-xs text-slate-600">
                {endpoint.events.join(", ")} · made by {endpoint.createdByName}{" "}
                <RelativeTime iso={endpoint.createdAt.toISOString()} />
              </div>
              {endpoint.disabledAt ? (
                <div className="mt-1">
                  <Badge tone="danger">Disabled</Badge>{" "}
                  <span className="text-xs text-slate-600">{endpoint.disabledReason}</span>
                </div>
              ) : null}
            </div>
            <DeleteEndpointForm id={endpoint.id} url={endpoint.url} action={deleteEndpointAction} />
          </div>
          <DataTable
            label={`Deliveries to ${endpoint.url}`}
            rows={endpoint.deliveries}
            rowKey={(delivery) => delivery.id}
            rowTestId="webhook-delivery-row"
            empty={<p className="text-sm text-slate-600">Nothing sent yet.</p>}
            columns={[
              {
                header: "Event",
                cell: (delivery) => (
                  <>
                    <div className="font-mono text-xs">{delivery.eventType}</div>
                    <div className="font-mono text-xs text-slate-500">{delivery.id}</div>
                  </>
                ),
              },
              { header: "Queued", cell: (delivery) => <RelativeTime iso={delivery.createdAt.toISOString()} /> },
              {
                header: "Status",
                cell: (delivery) => (
                  <Badge tone={STATUS_TONE[delivery.status as keyof typeof STATUS_TONE] ?? "neutral"}>
                    {delivery.status === "PENDING" && delivery.attempts > 0 ? "Retrying" : delivery.status}
                  </Badge>
                ),
              },
              { header: "Attempts", className: "tabular-nums", cell: (delivery) => delivery.attempts },
              {
                header: "Last answer",
                cell: (delivery) => (
                  <span className="text-xs">
                    {delivery.lastStatusCode ?? "—"}
                    {delivery.lastError ? <span className="text-slate-600"> · {delivery.lastError}</span> : null}
                  </span>
                ),
              },
              {
                header: "Next attempt",
                cell: (delivery) =>
                  delivery.status === "PENDING" ? <RelativeTime iso={delivery.nextAttemptAt.toISOString()} /> : "—",
              },
              {
                header: "",
                cell: (delivery) =>
                  delivery.status === "DELIVERED" || delivery.status === "FAILED" || delivery.attempts > 0 ? (
                    <ResendDeliveryForm id={delivery.id} action={resendDeliveryAction} />
                  ) : null,
              },
            ]}
          />
        </Card>
      ))}
    </div>
  );
}
