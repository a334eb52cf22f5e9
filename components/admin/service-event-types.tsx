import { DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatCount, humanize } from "@/lib/format";
import type { EventNeed, EventTypeView } from "@/lib/service-connection/event-types";

// The Service connection page's event types: for each, where it is switched on, when one last
// arrived, and, for a type Coverdesk needs but has never received, how to switch it on on the
// service's dashboard (the API cannot).

const ENABLED_ON: Record<NonNullable<EventTypeView["enabledOn"]>, string> = {
  ours: "On Coverdesk's webhook",
  other: "Only on another webhook",
  none: "On no listed webhook",
};

function needText(need: EventNeed): string {
  return need.reason === "monitorings"
    ? `${formatCount(need.count)} active monitoring${need.count === 1 ? "" : "s"}`
    : `${formatCount(need.count)} servicing request${need.count === 1 ? "" : "s"}`;
}

export function ServiceEventTypes({ events, hookUrl }: { events: EventTypeView[]; hookUrl: string }) {
  const missing = events.filter((event) => event.missing);
  return (
    <div className="space-y-3">
      <DataTable
        label="Event types"
        testId="service-event-types"
        rowTestId="service-event-type"
        rows={events}
        rowKey={(event) => event.eventType}
        columns={[
          { header: "Event", cell: (event) => humanize(event.eventType) },
          {
            header: "Switched on",
            cell: (event) => (event.dashboardOnly ? "On the service's dashboard" : "Through the API or the dashboard"),
          },
          {
            header: "Registrations",
            cell: (event) => (event.enabledOn === null ? "Not known now" : ENABLED_ON[event.enabledOn]),
          },
          {
            header: "Last received",
            cell: (event) =>
              event.lastReceivedAt ? <RelativeTime iso={event.lastReceivedAt.toISOString()} /> : "Never",
          },
          {
            header: "Needed",
            cell: (event) =>
              event.missing ? (
                <strong className="text-amber-800">Never received, with {needText(event.missing)}</strong>
              ) : null,
          },
        ]}
      />
      {missing.length > 0 ? (
        <div
          role="alert"
          data-testid="missing-event-types"
          className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <p>
            <strong>Coverdesk has never received {missing.map((event) => humanize(event.eventType)).join(", ")}</strong>
            , though it has {[...new Set(missing.map((event) => needText(event.missing as EventNeed)))].join(" and ")}:
            what those events report would go unseen. The service&apos;s API cannot switch them on; its dashboard can:
          </p>
          <ol className="list-decimal space-y-1 pl-5">
            <li>Sign in to the service&apos;s dashboard and open the team&apos;s webhooks.</li>
            <li>
              Open the webhook for <code className="break-all">{hookUrl}</code>, or add one for that address.
            </li>
            <li>
              Switch on{" "}
              {missing.map((event, index) => (
                <span key={event.eventType}>
                  {index > 0 ? ", " : ""}
                  <code>{event.eventType}</code>
                </span>
              ))}
              , and save.
            </li>
          </ol>
          <p>
            Nothing needs setting in Coverdesk: it checks each delivery against the signing secrets the service lists
            for the team&apos;s webhooks. This warning goes once the first such event arrives.
          </p>
        </div>
      ) : null}
    </div>
  );
}
