import type { Metadata } from "next";
import { RegisterWebhookForm, WebhookToggle } from "@/components/admin/service-connection-forms";
import { requirePermission } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { loadServiceConnectionPage, type Part } from "@/lib/service-connection/overview";
import { API_SETTABLE_WEBHOOK_EVENT_TYPES } from "@/lib/service/schemas";
import { humanize } from "@/lib/format";
import { registerWebhookAction, setWebhookActiveAction } from "./actions";

export const metadata: Metadata = { title: "Service connection" };

function Unavailable({ part }: { part: Part<unknown> }) {
  return part.ok ? null : (
    <p role="status" className="text-sm text-amber-800">
      {part.message}
    </p>
  );
}

export default async function ServiceConnectionPage() {
  await requirePermission("service:manage");
  const { view, registered } = await loadServiceConnectionPage(env());

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Service connection</h1>
        <p className="text-sm text-slate-600">
          The data-link service at <code className="break-all">{view.baseUrl}</code>, team <code>{view.teamId}</code>.
        </p>
      </div>

      <section aria-labelledby="health" className="rounded-lg border border-slate-200 bg-white p-4">
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
          <Unavailable part={view.health} />
        )}
      </section>

      <section aria-labelledby="links" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="links" className="text-lg font-medium text-slate-900">
          The team&apos;s links
        </h2>
        <p className="text-sm text-slate-600">
          Where consumers link their accounts (the service calls them widgets); each pull names the link it came
          through.
        </p>
        <Unavailable part={view.links} />
        {view.links.ok && view.links.value.length === 0 ? (
          <p className="text-sm text-slate-600">
            The team has no links yet: create one in the service&apos;s dashboard.
          </p>
        ) : null}
        {view.links.ok && view.links.value.length > 0 ? (
          <table className="mt-2 min-w-full text-sm" data-testid="service-links">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Link
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Alias
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Address
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Agents
                </th>
              </tr>
            </thead>
            <tbody>
              {view.links.value.map((link) => (
                <tr key={link.widgetId} className="border-t border-slate-100">
                  <td className="py-1 pr-3">
                    {link.name}
                    {link.isSandbox ? (
                      <span className="ml-2 rounded bg-slate-100 px-1 text-xs text-slate-600">sandbox</span>
                    ) : null}
                  </td>
                  <td className="py-1 pr-3">{link.publicAlias ?? "—"}</td>
                  <td className="py-1 pr-3 break-all">{link.publicUrl ?? "—"}</td>
                  <td className="py-1 pr-3 tabular-nums">{link.agents}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <section aria-labelledby="webhooks" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="webhooks" className="text-lg font-medium text-slate-900">
          Webhooks
        </h2>
        <p className="text-sm text-slate-600">
          Coverdesk receives events at <code className="break-all">{view.hookUrl}</code>
          {view.signed ? (
            ", and checks their signature."
          ) : (
            <strong className="text-amber-800">
              , but no SERVICE_WEBHOOK_SECRET is set: signatures are not checked.
            </strong>
          )}
        </p>
        <Unavailable part={view.webhooks} />
        {view.webhooks.ok && view.webhooks.value.length > 0 ? (
          <table className="min-w-full text-sm" data-testid="service-webhooks">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Address
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Events
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  State
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {view.webhooks.value.map((hook) => (
                <tr key={hook.webhookId} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 break-all">
                    {hook.url}
                    {hook.ours ? (
                      <span className="text-brand-800 ml-2 rounded bg-brand-50 px-1 text-xs">this Coverdesk</span>
                    ) : null}
                  </td>
                  <td className="py-1 pr-3">{hook.eventTypes.map(humanize).join(", ") || "—"}</td>
                  <td className="py-1 pr-3">{hook.isActive === false ? "Paused" : "Active"}</td>
                  <td className="py-1 pr-3">
                    {hook.ours ? (
                      <WebhookToggle
                        action={setWebhookActiveAction}
                        webhookId={hook.webhookId}
                        active={hook.isActive !== false}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {view.webhooks.ok && view.webhooks.value.length === 0 ? (
          <p className="text-sm text-slate-600">No webhook is registered for this team yet.</p>
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
      </section>
    </div>
  );
}
