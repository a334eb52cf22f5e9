import { FieldList } from "@/components/ui/field-list";
import { formatCents, formatLimit, formatPercent, humanize, text } from "@/lib/format";
import type { Dwelling, DwellingCoverage } from "@/lib/service/schemas";

/** A home limit is dollars, a share of the Dwelling limit, or a number of months (loss of use). */
function coverageLimit(c: DwellingCoverage): string {
  if (c.per_incident_unlimited) return "Unlimited";
  if (c.per_incident_limit_cents !== null) return formatLimit(c.per_incident_limit_cents);
  if (c.per_incident_limit_percent !== null) return `${formatPercent(c.per_incident_limit_percent)} of dwelling`;
  if (c.per_incident_limit_months !== null) return `${c.per_incident_limit_months} months`;
  return "—";
}

function DwellingCoverageRow({ coverage }: { coverage: DwellingCoverage }) {
  const deductible = coverage.deductible_cents !== null ? formatLimit(coverage.deductible_cents) : formatPercent(coverage.deductible_percent);
  return (
    <tr>
      <td className="py-1.5 pr-4">{coverage.friendly_name ?? humanize(coverage.name)}</td>
      <td className="py-1.5 pr-4 tabular-nums">{coverage.is_declined ? "Declined" : coverageLimit(coverage)}</td>
      <td className="py-1.5 pr-4 tabular-nums">{coverage.is_declined ? "—" : deductible}</td>
      <td className="py-1.5 tabular-nums">{formatCents(coverage.premium_cents)}</td>
    </tr>
  );
}

export function DwellingDetail({ dwelling }: { dwelling: Dwelling }) {
  const mortgagees = dwelling.mortgagees.length > 0
    ? dwelling.mortgagees.map((m) => m.name ?? "Unnamed").join(", ")
    : text(dwelling.mortgagee_name);
  return (
    <div className="rounded-md border border-slate-100 bg-slate-50 p-4" data-testid="dwelling">
      <p className="mb-3 font-medium text-slate-900">{dwelling.address?.full_address ?? "Dwelling"}</p>
      <FieldList
        columns={4}
        fields={[
          { label: "Replacement cost", value: formatCents(dwelling.replacement_cost_cents) },
          { label: "Loss settlement", value: humanize(dwelling.loss_settlement_type) },
          { label: "Mortgagees", value: mortgagees },
          { label: "Year built", value: text(dwelling.property_data?.year_built) },
        ]}
      />
      {dwelling.coverages.length > 0 ? (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">Coverage</th>
                <th scope="col" className="py-1 pr-4 font-medium">Limit</th>
                <th scope="col" className="py-1 pr-4 font-medium">Deductible</th>
                <th scope="col" className="py-1 font-medium">Premium</th>
              </tr>
            </thead>
            <tbody>{dwelling.coverages.map((c) => <DwellingCoverageRow key={c.dwelling_coverage_id} coverage={c} />)}</tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
