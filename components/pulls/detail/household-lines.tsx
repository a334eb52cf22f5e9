import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { DASH, formatCents, fullName, humanize } from "@/lib/format";
import type { Household, HouseholdPolicy } from "@/lib/pulls/household";
import { POLICY_STATUSES, POLICY_TYPES } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { enumLabel } from "./enum-label";
import { dwellingAnchor, policyAnchor, vehicleAnchor } from "./policy-card";
import { vehicleTitle } from "./pull-lookups";

// The household at a glance, under its name: the policies a line each, then the vehicles,
// drivers and homes they cover, each linking down to its full detail further on the page.

const term = (months: number | null) => (months === null ? DASH : months === 1 ? "1 month" : `${months} months`);

function PolicyLines({ policies }: { policies: HouseholdPolicy[] }) {
  return (
    <DataTable
      label="Policies at a glance"
      rows={policies}
      rowKey={(row) => row.policy.policy_id}
      rowTestId="household-policy"
      empty={<p className="text-sm text-slate-600">The carrier shows no policies on this account.</p>}
      columns={[
        {
          header: "Policy",
          cell: ({ policy }) => (
            <a href={`#${policyAnchor(policy.policy_id)}`} className={cn(LINK_CLASS, "font-medium")}>
              {policy.carrier_friendly_name ?? policy.carrier_name ?? "Unknown carrier"}{" "}
              {enumLabel(POLICY_TYPES, policy.policy_type).toLowerCase()}
            </a>
          ),
        },
        { header: "Premium", numeric: true, cell: ({ policy }) => formatCents(policy.total_premium_cents) },
        { header: "Term", cell: ({ termMonths }) => term(termMonths) },
        { header: "Per year", numeric: true, cell: ({ annualCents }) => formatCents(annualCents) },
        { header: "Expires", cell: ({ policy }) => <CalendarDate value={policy.expiry_date} /> },
        { header: "Status", cell: ({ policy }) => enumLabel(POLICY_STATUSES, policy.status) },
      ]}
    />
  );
}

function Lines({ title, testId, items }: { title: string; testId: string; items: React.ReactNode[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h2 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-600">({items.length})</span>
      </h2>
      <ul className="mt-1 space-y-1 text-sm text-slate-800" data-testid={testId}>
        {items}
      </ul>
    </div>
  );
}

export function HouseholdLines({ household }: { household: Household }) {
  const carrierOf = (policy: HouseholdPolicy["policy"]) => policy.carrier_friendly_name ?? policy.carrier_name;
  return (
    <div className="space-y-4">
      <PolicyLines policies={household.policies} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Lines
          title="Vehicles"
          testId="household-vehicles"
          items={household.vehicles.map(({ vehicle, policy }) => (
            <li key={`${policy.policy_id}-${vehicle.vehicle_id}`}>
              <a href={`#${vehicleAnchor(vehicle.vehicle_id)}`} className={LINK_CLASS}>
                {vehicleTitle(vehicle)}
              </a>
              {carrierOf(policy) ? <span className="text-slate-600"> · {carrierOf(policy)}</span> : null}
            </li>
          ))}
        />
        <Lines
          title="Drivers"
          testId="household-drivers"
          items={household.drivers.map((driver) => (
            <li key={driver.driver_id}>
              {fullName(driver)}
              <span className="text-slate-600">
                {[
                  driver.age !== null ? `${driver.age}` : null,
                  driver.relationship_to_insured ? humanize(driver.relationship_to_insured) : null,
                  driver.drivers_license_state ? `licensed in ${driver.drivers_license_state}` : null,
                ]
                  .filter(Boolean)
                  .map((part) => ` · ${part}`)
                  .join("")}
              </span>
            </li>
          ))}
        />
        <Lines
          title="Homes"
          testId="household-homes"
          items={household.dwellings.map(({ dwelling, policy }) => (
            <li key={`${policy.policy_id}-${dwelling.dwelling_id}`}>
              <a href={`#${dwellingAnchor(dwelling.dwelling_id)}`} className={LINK_CLASS}>
                {dwelling.address?.full_address ?? "Home"}
              </a>
              <span className="text-slate-600"> · {enumLabel(POLICY_TYPES, policy.policy_type).toLowerCase()}</span>
            </li>
          ))}
        />
      </div>
    </div>
  );
}
