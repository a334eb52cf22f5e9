import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DASH, formatAddress, formatCents, fullName, text } from "@/lib/format";
import type { Claim } from "@/lib/service/schemas";
import { EmailLink, PhoneLink } from "./contact-links";
import { CalendarDate } from "./dates";
import { policyLabel, vehicleTitle, type PullIndex } from "./pull-lookups";
import { CLAIM_STATUSES, CLAIM_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// Claims on the account: what, when, the payout, and what they concern (policy, vehicle or
// home, driver, where it happened), with the carrier's representative to call.

function Concerning({ claim, index }: { claim: Claim; index: PullIndex }) {
  const vehicle = claim.vehicle_id ? index.vehicles.get(claim.vehicle_id) : undefined;
  const dwelling = claim.dwelling_id ? index.dwellings.get(claim.dwelling_id) : undefined;
  const driver = claim.driver_id ? index.drivers.get(claim.driver_id) : undefined;
  const parts = [
    vehicle ? vehicleTitle(vehicle) : null,
    dwelling ? formatAddress(dwelling.address) : null,
    driver ? `Driver: ${fullName(driver)}` : null,
  ].filter((part): part is string => part !== null && part !== DASH);
  return parts.length > 0 ? <>{parts.join(" · ")}</> : <>{DASH}</>;
}

function Representative({ claim }: { claim: Claim }) {
  if (!claim.representative_name && !claim.representative_phone && !claim.representative_email) return <>{DASH}</>;
  return (
    <span className="block space-y-0.5">
      {claim.representative_name ? <span className="block">{claim.representative_name}</span> : null}
      {claim.representative_phone ? (
        <span className="block">
          <PhoneLink phone={claim.representative_phone} />
        </span>
      ) : null}
      {claim.representative_email ? (
        <span className="block">
          <EmailLink email={claim.representative_email} />
        </span>
      ) : null}
    </span>
  );
}

export function Claims({ claims, index }: { claims: Claim[]; index: PullIndex }) {
  return (
    <DataTable
      label="Claims"
      rows={claims}
      rowKey={(claim) => claim.claim_id}
      rowTestId="claim"
      columns={[
        { header: "Occurred", cell: (claim) => <CalendarDate value={claim.date_occurred} /> },
        { header: "Type", cell: (claim) => enumLabel(CLAIM_TYPES, claim.type) },
        {
          header: "Status",
          cell: (claim) =>
            claim.status === "OPEN" ? <Badge tone="warning">Open</Badge> : enumLabel(CLAIM_STATUSES, claim.status),
        },
        { header: "Payout", numeric: true, cell: (claim) => formatCents(claim.payout_cents) },
        { header: "Closed", cell: (claim) => <CalendarDate value={claim.date_closed} /> },
        {
          header: "Claim number",
          cell: (claim) => <span className="font-mono">{text(claim.carrier_claim_identifier)}</span>,
        },
        {
          header: "Policy",
          cell: (claim) => {
            const policy = claim.policy_id ? index.policies.get(claim.policy_id) : undefined;
            return policy ? policyLabel(policy) : DASH;
          },
        },
        { header: "Concerning", cell: (claim) => <Concerning claim={claim} index={index} /> },
        {
          header: "Where",
          cell: (claim) => formatAddress(claim.address_id ? index.addresses.get(claim.address_id) : null),
        },
        { header: "Representative", cell: (claim) => <Representative claim={claim} /> },
      ]}
    />
  );
}
