import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { fullName, text } from "@/lib/format";
import type { VehicleDriver } from "@/lib/service/schemas";
import { RELATIONSHIPS_TO_INSURED } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// The drivers listed on a vehicle; an excluded driver is not covered when driving it, so the
// mark must be impossible to miss.

/** `is_primary` is not in the spec, but the service's own examples send it. */
const isPrimary = (driver: VehicleDriver) => driver.is_primary === true;

export function VehicleDrivers({ drivers, label }: { drivers: VehicleDriver[]; label: string }) {
  return (
    <DataTable
      label={label}
      rows={drivers}
      rowKey={(driver) => driver.driver_id}
      rowTestId="vehicle-driver"
      columns={[
        {
          header: "Driver",
          cell: (driver) => (
            <span className="flex flex-wrap items-center gap-1.5">
              {fullName(driver)}
              {driver.is_excluded ? <Badge tone="danger">Excluded</Badge> : null}
              {isPrimary(driver) ? <Badge tone="info">Primary</Badge> : null}
            </span>
          ),
        },
        {
          header: "Relationship",
          cell: (driver) => enumLabel(RELATIONSHIPS_TO_INSURED, driver.relationship_to_insured),
        },
        { header: "Age", numeric: true, cell: (driver) => text(driver.age) },
        {
          header: "License",
          cell: (driver) => [driver.drivers_license, driver.drivers_license_state].filter(Boolean).join(" · ") || "—",
        },
      ]}
    />
  );
}
