import { LINK_CLASS } from "@/components/ui/link-class";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { CopyLink } from "@/components/monitoring/reconnect-actions";
import { ActionForm } from "@/components/ui/action-form";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ServicingPanel as Panel } from "@/lib/servicing/panel";
import type { FormAction } from "@/lib/core/form-state";
import { ServicingRequestForm } from "./servicing-request-form";

// A WON client's changes at the carrier (mortgagees, vehicles), asked through the service: the
// form for the changes the carrier supports, and every request with its progress and, while the
// client has to confirm, the link to their confirm page.

const TONES = {
  waiting: "text-amber-800",
  done: "text-emerald-800",
  refused: "text-red-700",
} as const;

export function ServicingPanel({
  pullId,
  panel,
  clientEmail,
  request,
  revokeLink,
}: {
  pullId: string;
  panel: Panel;
  clientEmail: string | null;
  request: FormAction;
  /** Withdraws a confirm link: the client's page stops taking an answer. */
  revokeLink: FormAction;
}) {
  return (
    <section aria-labelledby="servicing-title" className={cn(CARD_CLASS, "p-5")} data-testid="servicing-panel">
      <h2 id="servicing-title" className="text-lg font-semibold text-slate-900">
        Servicing
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Ask {panel.carrierName}, through the service, to change this client&apos;s policy. The client confirms each
        change on a page of ours before the carrier makes it.
      </p>
      {panel.carrierUnavailable ? (
        <p role="status" className="mb-3 text-sm text-amber-800">
          The service could not be asked which changes {panel.carrierName} supports just now. Reload the page in a
          minute to ask for one.
        </p>
      ) : panel.carrierSupportsNone ? (
        <p className="mb-3 text-sm text-slate-700">{panel.carrierName} does not let the service change policies.</p>
      ) : panel.actions.length === 0 ? (
        <p className="mb-3 text-sm text-slate-700">
          Nothing on this pull can be changed through the service: {panel.carrierName}&apos;s changes need a home or
          auto policy with a policy number.
        </p>
      ) : !panel.canRequest ? (
        <p className="mb-3 text-sm text-slate-700">
          Only this client&apos;s agent, a manager or an admin can ask for changes.
        </p>
      ) : (
        <ServicingRequestForm pullId={pullId} actions={panel.actions} targets={panel.targets} action={request} />
      )}

      {panel.requests.length > 0 ? (
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-slate-800">Requests</h3>
          <ul className="mt-2 divide-y divide-slate-100" data-testid="servicing-requests">
            {panel.requests.map((item) => (
              <li key={item.id} className="py-3 text-sm" data-testid="servicing-request">
                <p className="text-slate-900">{item.change}</p>
                <p className={`mt-0.5 ${TONES[item.status.tone]}`} data-testid="servicing-status">
                  {item.status.label}
                </p>
                <p className="mt-0.5 text-xs text-slate-500">
                  Asked by {item.requestedByName ?? "someone"} <RelativeTime iso={item.requestedAt} />
                </p>
                {item.servicingPullId ? (
                  <p className="mt-0.5 text-xs">
                    <Link className={LINK_CLASS} href={`/pulls/${item.servicingPullId}`}>
                      The service&apos;s servicing pull
                    </Link>
                  </p>
                ) : null}
                {item.confirmUrl ? (
                  <div className="mt-2 space-y-1">
                    <label className="block text-xs text-slate-600" htmlFor={`servicing-link-${item.id}`}>
                      The client&apos;s confirm page, for the client only (send it to them; it expires{" "}
                      <RelativeTime iso={item.expiresAt} />
                      ):
                    </label>
                    <div className="flex flex-wrap items-center gap-2">
                      <input
                        id={`servicing-link-${item.id}`}
                        readOnly
                        value={item.confirmUrl}
                        className="w-full max-w-md rounded-md border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs"
                        data-testid="servicing-confirm-link"
                      />
                      <CopyLink url={item.confirmUrl} />
                      {clientEmail ? (
                        <a
                          className={cn(LINK_CLASS, "text-xs")}
                          href={`mailto:${encodeURIComponent(clientEmail)}?subject=${encodeURIComponent("Please confirm a change to your policy")}&body=${encodeURIComponent(`Please confirm this change to your policy: ${item.change}\n\n${item.confirmUrl}`)}`}
                        >
                          Email it
                        </a>
                      ) : null}
                      <ActionForm
                        action={revokeLink}
                        inline
                        submitVariant="secondary"
                        submitSize="sm"
                        submitLabel="Withdraw link"
                        pendingLabel="Withdrawing…"
                      >
                        <input type="hidden" name="pullId" value={pullId} />
                        <input type="hidden" name="requestId" value={item.id} />
                      </ActionForm>
                    </div>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
