import { FieldList } from "@/components/ui/field-list";
import { formatCents, formatLimit, humanize, text } from "@/lib/format";
import type { Vehicle, VehicleCoverage } from "@/lib/service/schemas";

function limit(cents: number | null, unlimited: boolean | null): string {
  if (unlimited) return "Unlimited";
  return formatLimit(cents);
}

function CoverageRow({ coverage }: { coverage: VehicleCoverage }) {
  return (
    <tr>
      <td className="py-1.5 pr-4">{coverage.friendly_name ?? humanize(coverage.name)}</td>
      <td className="py-1.5 pr-4 tabular-nums">{coverage.is_declined ? "Declined" : limit(coverage.per_person_limit_cents, coverage.per_person_unlimited)}</td>
      <td className="py-1.5 pr-4 tabular-nums">{coverage.is_declined ? "—" : limit(coverage.per_incident_limit_cents, coverage.per_incident_unlimited)}</td>
      <td className="py-1.5 pr-4 tabular-nums">{formatLimit(coverage.deductible_cents)}</td>
      <td className="py-1.5 tabular-nums">{formatCents(coverage.premium_cents)}</td>
    </tr>
  );
}

export function VehicleDetail({ vehicle }: { vehicle: Vehicle }) {
  const title = [vehicle.year, vehicle.make, vehicle.model, vehicle.series].filter(Boolean).join(" ") || "Vehicle";
  return (
    <div className="rounded-md border border-slate-100 bg-slate-50 p-4" data-testid="vehicle">
      <p className="mb-3 font-medium text-slate-900">{title}</p>
      <FieldList
        columns={4}
        fields={[
          { label: "VIN", value: <span className="font-mono">{text(vehicle.vin ?? vehicle.hin)}</span> },
          { label: "Ownership", value: humanize(vehicle.ownership_type) },
          { label: "Lien holder", value: text(vehicle.lien_holder) },
          { label: "Annual mileage", value: vehicle.annual_mileage?.toLocaleString("en-US") ?? "—" },
        ]}
      />
      {vehicle.coverages.length > 0 ? (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">Coverage</th>
                <th scope="col" className="py-1 pr-4 font-medium">Per person</th>
                <th scope="col" className="py-1 pr-4 font-medium">Per incident</th>
                <th scope="col" className="py-1 pr-4 font-medium">Deductible</th>
                <th scope="col" className="py-1 font-medium">Premium</th>
              </tr>
            </thead>
            <tbody>{vehicle.coverages.map((c) => <CoverageRow key={c.vehicle_coverage_id} coverage={c} />)}</tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
