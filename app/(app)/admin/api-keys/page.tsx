import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CreateApiKeyForm, RevokeApiKeyForm } from "@/components/admin/api-key-forms";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { loadApiKeysPage } from "@/lib/loaders/api-keys";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const user = await requirePermission("api-keys:manage");
  const page = await loadApiKeysPage(await getDb(), user);
  if (!page.ok) notFound();
  return (
    <div className="space-y-4">
      <PageHeader
        title="API keys"
        description="Keys for other systems (Zapier, Make, your agency management system) to read and update linked accounts through /api/v1. A key is shown once; every call is in the audit trail under its name."
      />
      <CreateApiKeyForm action={createApiKeyAction} scopes={page.scopes} />
      <DataTable
        label="API keys"
        rows={page.keys}
        rowKey={(key) => key.id}
        rowTestId="api-key-row"
        empty={<p className="text-sm text-slate-600">No keys yet.</p>}
        columns={[
          {
            header: "Name",
            cell: (key) => (
              <>
                <div className="font-medium text-slate-900">{key.name}</div>
                <div className="font-mono text-xs text-slate-500">{key.prefix}</div>
              </>
            ),
          },
          { header: "Scopes", cell: (key) => <span className="font-mono text-xs">{key.scopes.join(", ")}</span> },
          {
            header: "Made",
            cell: (key) => (
              <>
                <RelativeTime iso={key.createdAt.toISOString()} />
                <div className="text-xs text-slate-500">{key.createdByName ?? "from the command line"}</div>
              </>
            ),
          },
          {
            header: "Last used",
            cell: (key) => (key.lastUsedAt ? <RelativeTime iso={key.lastUsedAt.toISOString()} /> : "Never"),
          },
          { header: "Calls a minute", className: "tabular-nums", cell: (key) => key.rateLimitPerMinute },
          {
            header: "Status",
            cell: (key) =>
              key.revokedAt ? (
                <Badge tone="danger">Revoked</Badge>
              ) : (
                <RevokeApiKeyForm id={key.id} name={key.name} action={revokeApiKeyAction} />
              ),
          },
        ]}
      />
    </div>
  );
}
