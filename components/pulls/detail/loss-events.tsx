import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, yesNo } from "@/lib/format";
import type { LossEvent } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { policyLabel, type PullIndex } from "./pull-lookups";
import { LOSS_EVENT_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// A business's loss history: what happened, when, what was paid and what is still reserved.

export function LossEvents({ events, index }: { events: LossEvent[]; index: PullIndex }) {
  return (
    <DataTable
      label="Loss events"
      rows={events}
      rowKey={(event) => event.loss_event_id}
      rowTestId="loss-event"
      columns={[
        { header: "Occurred", cell: (event) => <CalendarDate value={event.date_of_occurrence} /> },
        { header: "Claimed", cell: (event) => <CalendarDate value={event.date_of_claim} /> },
        { header: "Type", cell: (event) => enumLabel(LOSS_EVENT_TYPES, event.type) },
        {
          header: "Status",
          cell: (event) =>
            event.is_claim_open === null ? (
              "—"
            ) : event.is_claim_open ? (
              <Badge tone="warning">Open</Badge>
            ) : (
              <Badge>Closed</Badge>
            ),
        },
        { header: "Paid", numeric: true, cell: (event) => formatCents(event.amount_paid_cents) },
        { header: "Reserved", numeric: true, cell: (event) => formatCents(event.amount_reserved_cents) },
        { header: "Subrogation", cell: (event) => yesNo(event.is_subrogation) },
        {
          header: "Policy",
          cell: (event) => {
            const policy = event.policy_id ? index.policies.get(event.policy_id) : undefined;
            return policy ? policyLabel(policy) : "—";
          },
        },
      ]}
    />
  );
}
