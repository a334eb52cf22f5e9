import { LINK_CLASS } from "@/components/ui/link-class";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { formatAddress, formatCents, text } from "@/lib/format";
import {
  parseTolerant,
  propertyDataSchema,
  type CommercialNamedInsured,
  type Location,
  type Policy,
} from "@/lib/service/schemas";
import { EmailLink, PhoneLink, WebLink } from "./contact-links";
import { SubHeading } from "./detail-section";
import { LooseRecordView } from "./loose-fields";
import { addressFrom } from "./loose-values";
import { policyAnchor } from "./policy-card";
import { PropertyData } from "./property-data";
import { policyLabel, type Grouped, type PullIndex } from "./pull-lookups";
import { FORMS_OF_BUSINESS } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// The business behind commercial policies: who is insured (class codes, FEIN, size), where it
// operates, and the workers' compensation premiums an agent quotes against.

function PolicyLinks({ policies }: { policies: Policy[] }) {
  return (
    <ul className="space-y-0.5">
      {policies.map((policy) => (
        <li key={policy.policy_id}>
          <a href={`#${policyAnchor(policy.policy_id)}`} className={LINK_CLASS}>
            {policyLabel(policy)}
          </a>
        </li>
      ))}
    </ul>
  );
}

function CommercialInsureds({ insureds, index }: { insureds: Grouped<CommercialNamedInsured>[]; index: PullIndex }) {
  return (
    <DataTable
      label="Commercial named insureds"
      rows={insureds}
      rowKey={({ item }) => item.commercial_named_insured_id}
      rowTestId="commercial-insured"
      columns={[
        {
          header: "Business",
          cell: ({ item }) => (
            <span className="flex flex-wrap items-center gap-1.5">
              {text(item.name)}
              {item.is_primary_named_insured ? <Badge tone="info">Primary</Badge> : null}
            </span>
          ),
        },
        { header: "Form", cell: ({ item }) => enumLabel(FORMS_OF_BUSINESS, item.form_of_business) },
        { header: "FEIN", cell: ({ item }) => <span className="font-mono">{text(item.fein)}</span> },
        { header: "GL code", cell: ({ item }) => text(item.gl_code) },
        { header: "SIC", cell: ({ item }) => text(item.sic_code) },
        { header: "NAICS", cell: ({ item }) => text(item.naics_code) },
        { header: "Employees", numeric: true, cell: ({ item }) => text(item.number_of_employees) },
        { header: "Phone", cell: ({ item }) => <PhoneLink phone={item.business_phone} /> },
        { header: "Email", cell: ({ item }) => <EmailLink email={item.business_email} /> },
        { header: "Website", cell: ({ item }) => <WebLink url={item.website_url} /> },
        {
          header: "Address",
          cell: ({ item }) => formatAddress(item.address_id ? index.addresses.get(item.address_id) : null),
        },
        { header: "Minimum premium", numeric: true, cell: ({ item }) => formatCents(item.minimum_premium_cents) },
        {
          header: "Est. annual premium",
          numeric: true,
          cell: ({ item }) => formatCents(item.total_estimated_annual_premium_cents),
        },
        { header: "Policies", cell: ({ policies }) => <PolicyLinks policies={policies} /> },
      ]}
    />
  );
}

function Locations({ locations }: { locations: Grouped<Location>[] }) {
  return (
    <div className="space-y-3">
      {locations.map(({ item, policies }, position) => {
        const address = addressFrom(item.address);
        const title =
          typeof item.description === "string" && item.description ? item.description : `Location ${position + 1}`;
        // A location's fields are not published; its property data has the dwelling's shape,
        // so it reads the same way. The address is shown above; the rest as the service sent it.
        const propertyData =
          item.property_data === undefined || item.property_data === null
            ? null
            : parseTolerant(propertyDataSchema, item.property_data);
        const shownApart = new Set(["address", ...(propertyData?.ok ? ["property_data"] : [])]);
        const rest = Object.fromEntries(Object.entries(item).filter(([key]) => !shownApart.has(key)));
        return (
          <div
            key={typeof item.location_id === "string" ? item.location_id : position}
            className="rounded-md border border-slate-200 p-3"
            data-testid="location"
          >
            <h4 className="font-medium text-slate-900">{title}</h4>
            {address ? <p className="text-sm text-slate-700">{formatAddress(address)}</p> : null}
            <p className="mb-2 text-xs text-slate-600">On {policies.map(policyLabel).join("; ")}</p>
            <LooseRecordView record={rest} label={title} />
            {propertyData?.ok ? (
              <>
                <h5 className="mt-4 mb-2 text-sm font-semibold text-slate-700">Property data</h5>
                <PropertyData data={propertyData.value} groupLevel={6} />
              </>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function WorkersCompPremiums({ policies }: { policies: Policy[] }) {
  return (
    <DataTable
      label="Workers' compensation premiums"
      rows={policies}
      rowKey={(policy) => policy.policy_id}
      rowTestId="workers-comp"
      columns={[
        { header: "Policy", cell: (policy) => <PolicyLinks policies={[policy]} /> },
        {
          header: "Estimated annual",
          numeric: true,
          cell: (policy) => formatCents(policy.total_estimated_annual_premium_cents),
        },
        { header: "Minimum", numeric: true, cell: (policy) => formatCents(policy.total_minimum_premium_cents) },
        { header: "Deposit", numeric: true, cell: (policy) => formatCents(policy.total_deposit_premium_cents) },
        { header: "Total premium", numeric: true, cell: (policy) => formatCents(policy.total_premium_cents) },
      ]}
    />
  );
}

export function CommercialParts({
  insureds,
  locations,
  workersComp,
  index,
}: {
  insureds: Grouped<CommercialNamedInsured>[];
  locations: Grouped<Location>[];
  workersComp: Policy[];
  index: PullIndex;
}) {
  return (
    <>
      {insureds.length > 0 ? (
        <>
          <SubHeading level={3}>Named insureds</SubHeading>
          <CommercialInsureds insureds={insureds} index={index} />
        </>
      ) : null}
      {locations.length > 0 ? (
        <>
          <SubHeading level={3}>Locations</SubHeading>
          <Locations locations={locations} />
        </>
      ) : null}
      {workersComp.length > 0 ? (
        <>
          <SubHeading level={3}>Workers&apos; compensation premiums</SubHeading>
          <WorkersCompPremiums policies={workersComp} />
        </>
      ) : null}
    </>
  );
}
