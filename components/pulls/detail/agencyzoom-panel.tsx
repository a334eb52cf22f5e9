import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/class-names";
import { LINK_CLASS } from "@/components/ui/link-class";
import type { FormAction } from "@/lib/core/form-state";
import { formatInstant } from "@/lib/format";
import type { AgencyzoomPanel as Panel } from "@/lib/handoff/agencyzoom-panel";
import { SubHeading } from "./detail-section";

// "Send to AgencyZoom": before a send, every value AgencyZoom requires of a lead and where it
// comes from (this pull, the admin's assumptions, or missing, which blocks the send), and whom
// the lead is assigned to; after, when and by whom it was sent, the link to the lead, and "Send
// again", which updates that lead rather than making a second one.

const SOURCE: Record<Panel["required"][number]["source"], { label: string; tone: "neutral" | "info" | "danger" }> = {
  pull: { label: "From the pull", tone: "neutral" },
  assumed: { label: "Assumed", tone: "info" },
  missing: { label: "Missing", tone: "danger" },
};

const ASSIGNEE: Record<Panel["assignee"]["how"], string> = {
  mapped: "the pull owner's AgencyZoom user",
  fallback: "the admin's fallback user (the pull's owner is not mapped to an AgencyZoom user)",
  none: "nobody yet: map the pull's owner or set a fallback user on Admin → AgencyZoom",
};

export function AgencyzoomPanel({ pullId, panel, send }: { pullId: string; panel: Panel; send: FormAction }) {
  return (
    <section data-testid="agencyzoom-panel" aria-labelledby="agencyzoom-title">
      <SubHeading level={3}>
        <span id="agencyzoom-title">Send to AgencyZoom</span>
      </SubHeading>
      {!panel.configured ? (
        <p className="text-sm text-slate-600" data-testid="agencyzoom-off">
          AgencyZoom is not connected here (AGENCYZOOM_BASE_URL is unset), so nothing can be sent.
        </p>
      ) : (
        <>
          {panel.sent ? (
            <p className="text-sm text-slate-700" data-testid="agencyzoom-sent">
              Sent {formatInstant(panel.sent.at)} by {panel.sent.by}
              {panel.sent.count > 1 ? ` (${panel.sent.count} sends)` : ""}.{" "}
              {panel.sent.url ? (
                <a
                  href={panel.sent.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={cn(LINK_CLASS, "font-medium")}
                  data-testid="agencyzoom-lead-link"
                >
                  Open lead {panel.sent.externalId} in AgencyZoom
                </a>
              ) : (
                `Lead ${panel.sent.externalId}.`
              )}
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              Creates a lead in the agency&apos;s AgencyZoom with the client&apos;s contact details, address, date of
              birth and a note of today&apos;s coverage, drivers and vehicles. The send is recorded in the pull&apos;s
              history.
            </p>
          )}
          <table className="mt-2 w-full text-left text-sm" data-testid="agencyzoom-required">
            <caption className="sr-only">What AgencyZoom requires of a lead, and where each value comes from</caption>
            <thead>
              <tr className="text-slate-500">
                <th scope="col" className="py-1 pr-3 font-medium">
                  AgencyZoom needs
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Value
                </th>
                <th scope="col" className="py-1 font-medium">
                  From
                </th>
              </tr>
            </thead>
            <tbody>
              {panel.required.map((value) => (
                <tr key={value.field} className="border-t border-slate-100" data-testid={`agencyzoom-${value.field}`}>
                  <td className="py-1 pr-3 text-slate-700">{value.label}</td>
                  <td className="py-1 pr-3 text-slate-900">{value.value ?? "—"}</td>
                  <td className="py-1 text-slate-700">
                    <Badge tone={SOURCE[value.source].tone}>{SOURCE[value.source].label}</Badge>
                    {value.source !== "pull" && value.note ? (
                      <span className="ml-2 text-xs text-slate-600">{value.note}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-sm text-slate-700" data-testid="agencyzoom-assignee">
            Assigned in AgencyZoom to{" "}
            {panel.assignee.agencyzoomUserId !== null ? `user ${panel.assignee.agencyzoomUserId}, ` : ""}
            {ASSIGNEE[panel.assignee.how]}.
          </p>
          <ActionForm
            action={send}
            aria-label="Send to AgencyZoom"
            submitLabel={panel.sent ? "Send again (updates the lead)" : "Send to AgencyZoom"}
            pendingLabel="Sending…"
            submitVariant={panel.sent ? "secondary" : "primary"}
            submitDisabled={!panel.ready}
            className="mt-3 space-y-2"
          >
            <input type="hidden" name="pullId" value={pullId} />
          </ActionForm>
        </>
      )}
    </section>
  );
}
