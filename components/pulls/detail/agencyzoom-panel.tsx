import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
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
          <div className="mt-2">
            <DataTable
              label="What AgencyZoom requires of a lead"
              caption="What AgencyZoom requires of a lead, and where each value comes from"
              hideCaption
              testId="agencyzoom-required"
              rows={panel.required}
              rowKey={(value) => value.field}
              rowData={(value) => ({ "data-field": value.field })}
              columns={[
                { header: "AgencyZoom needs", cell: (value) => value.label },
                { header: "Value", cell: (value) => value.value ?? "—" },
                {
                  header: "From",
                  cell: (value) => (
                    <>
                      <Badge tone={SOURCE[value.source].tone}>{SOURCE[value.source].label}</Badge>
                      {value.source !== "pull" && value.note ? (
                        <span className="ml-2 text-xs text-slate-600">{value.note}</span>
                      ) : null}
                    </>
                  ),
                },
              ]}
            />
          </div>
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
