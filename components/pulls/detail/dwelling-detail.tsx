import { LINK_CLASS } from "@/components/ui/link-class";
import { Badge } from "@/components/ui/badge";
import { FieldList } from "@/components/ui/field-list";
import { DASH, formatAddress, formatCents } from "@/lib/format";
import type { Dwelling, Policy } from "@/lib/service/schemas";
import { SubHeading } from "./detail-section";
import { DwellingCoverages } from "./dwelling-coverages";
import { Mortgagees } from "./mortgagees";
import { dwellingAnchor, policyAnchor } from "./policy-card";
import { PropertyData } from "./property-data";
import { policyLabel } from "./pull-lookups";
import { LOSS_SETTLEMENT_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// One home on a homeowners, condo, renters, landlord or flood policy: its values and how a loss
// is settled, its coverages, mortgagees and property data.

export function DwellingDetail({ dwelling, policy }: { dwelling: Dwelling; policy: Policy }) {
  const address = formatAddress(dwelling.address);
  const title = address === DASH ? "Home" : address;
  const extended = dwelling.extended_replacement_cost_percent;
  // The same home can be on two policies (homeowners and flood): table names say which.
  const tableLabel = `${title} on ${policyLabel(policy)}`;
  return (
    <article
      id={dwellingAnchor(dwelling.dwelling_id)}
      aria-label={title}
      className="scroll-mt-4 rounded-lg border border-slate-200 p-4"
      data-testid="dwelling"
    >
      <header className="mb-3">
        <h3 className="text-base font-semibold break-words text-slate-900">{title}</h3>
        <p className="text-sm text-slate-600">
          On{" "}
          <a href={`#${policyAnchor(policy.policy_id)}`} className={LINK_CLASS}>
            {policyLabel(policy)}
          </a>
        </p>
      </header>
      <FieldList
        columns={4}
        fields={[
          {
            label: "Replacement cost",
            value: (
              <span className="flex flex-wrap items-center gap-1.5">
                {formatCents(dwelling.replacement_cost_cents)}
                {dwelling.is_replacement_cost_cents_derived ? <Badge>From the dwelling limit</Badge> : null}
              </span>
            ),
          },
          { label: "Extended replacement", value: extended === null ? DASH : `${extended}%` },
          { label: "Total replacement cost", value: formatCents(dwelling.total_replacement_cost_cents) },
          { label: "Cash value", value: formatCents(dwelling.cash_value_cents) },
          { label: "Loss settlement", value: enumLabel(LOSS_SETTLEMENT_TYPES, dwelling.loss_settlement_type) },
        ]}
      />
      {dwelling.coverages.length > 0 ? (
        <>
          <SubHeading>Coverages</SubHeading>
          <DwellingCoverages coverages={dwelling.coverages} label={`${tableLabel}: coverages`} />
        </>
      ) : null}
      <SubHeading>Mortgagees</SubHeading>
      <Mortgagees dwelling={dwelling} label={`${tableLabel}: mortgagees`} />
      <SubHeading>Property data</SubHeading>
      {dwelling.property_data ? (
        <PropertyData data={dwelling.property_data} />
      ) : (
        <p className="text-sm text-slate-600">No property data for this home.</p>
      )}
    </article>
  );
}
