import { LINK_CLASS } from "@/components/ui/link-class";
import { Badge } from "@/components/ui/badge";
import { FieldList } from "@/components/ui/field-list";
import { formatAddress, formatCount, humanize, text } from "@/lib/format";
import type { Policy, Vehicle } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { addressFrom } from "./loose-values";
import { SubHeading } from "./detail-section";
import { policyAnchor, vehicleAnchor } from "./policy-card";
import { policyLabel, vehicleTitle } from "./pull-lookups";
import { VehicleCoverages } from "./vehicle-coverages";
import { VehicleDrivers } from "./vehicle-drivers";
import { OWNERSHIP_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// One vehicle (or boat): what it is, how it is used and financed, where it is kept, and its
// coverages and drivers. The service's examples sometimes send the addresses only under
// other casing (`GaragingAddress`), which is read when the documented key is missing.

export function VehicleDetail({ vehicle, policy }: { vehicle: Vehicle; policy: Policy }) {
  const title = vehicleTitle(vehicle);
  // Two vehicles can share a title (or one vehicle two policies): table names say which.
  const tableLabel = `${title} ${vehicle.vin ?? vehicle.hin ?? ""} on ${policyLabel(policy)}`.replace(/\s+/g, " ");
  return (
    <article
      id={vehicleAnchor(vehicle.vehicle_id)}
      aria-label={title}
      className="scroll-mt-4 rounded-lg border border-slate-200 p-4"
      data-testid="vehicle"
    >
      <header className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold break-words text-slate-900">{title}</h3>
          <p className="text-sm text-slate-600">
            On{" "}
            <a href={`#${policyAnchor(policy.policy_id)}`} className={LINK_CLASS}>
              {policyLabel(policy)}
            </a>
          </p>
        </div>
        {vehicle.is_removed ? <Badge tone="warning">Removed from policy</Badge> : null}
      </header>
      <FieldList
        columns={4}
        fields={[
          vehicle.hin && !vehicle.vin
            ? { label: "HIN", value: <span className="font-mono break-all">{vehicle.hin}</span> }
            : { label: "VIN", value: <span className="font-mono break-all">{text(vehicle.vin)}</span> },
          ...(vehicle.hin && vehicle.vin
            ? [{ label: "HIN", value: <span className="font-mono break-all">{vehicle.hin}</span> }]
            : []),
          ...(vehicle.serial_number
            ? [{ label: "Serial number", value: <span className="font-mono break-all">{vehicle.serial_number}</span> }]
            : []),
          { label: "Type", value: text(vehicle.type) },
          { label: "Uses", value: vehicle.uses.length > 0 ? vehicle.uses.map(humanize).join(", ") : "—" },
          { label: "Annual mileage", value: formatCount(vehicle.annual_mileage) },
          { label: "Current mileage", value: formatCount(vehicle.current_mileage) },
          { label: "Ownership", value: enumLabel(OWNERSHIP_TYPES, vehicle.ownership_type) },
          { label: "Purchased", value: <CalendarDate value={vehicle.purchase_date} /> },
          { label: "Lien holder", value: text(vehicle.lien_holder) },
          {
            label: "Lien holder address",
            value: formatAddress(vehicle.lien_holder_address ?? addressFrom(vehicle.LienHolderAddress)),
          },
          {
            label: "Garaging address",
            value: formatAddress(vehicle.garaging_address ?? addressFrom(vehicle.GaragingAddress)),
          },
          { label: "Features", value: vehicle.features.length > 0 ? vehicle.features.join(", ") : "—" },
        ]}
      />
      {vehicle.coverages.length > 0 ? (
        <>
          <SubHeading>Coverages</SubHeading>
          <VehicleCoverages coverages={vehicle.coverages} label={`${tableLabel}: coverages`} />
        </>
      ) : null}
      {vehicle.drivers.length > 0 ? (
        <>
          <SubHeading>Drivers</SubHeading>
          <VehicleDrivers drivers={vehicle.drivers} label={`${tableLabel}: drivers`} />
        </>
      ) : null}
    </article>
  );
}
