import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DASH, formatCents, formatLimit, formatTenthsOfCents, humanize } from "@/lib/format";
import type { VehicleCoverage } from "@/lib/service/schemas";
import { PIP_DEDUCTIBLE_APPLICABILITIES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// A vehicle's coverages as a declarations page lists them: split limits per person and per
// incident, daily limits with their number of days, unlimited (Michigan PIP), declined ones
// kept visible, stacking and per-mile rates.

function limit(cents: number | null, unlimited: boolean | null): string {
  if (unlimited) return "Unlimited";
  return formatLimit(cents);
}

function perDay(coverage: VehicleCoverage): string {
  if (coverage.per_day_limit_cents === null) return DASH;
  const daily = `${formatLimit(coverage.per_day_limit_cents)}/day`;
  return coverage.max_days !== null ? `${daily}, up to ${coverage.max_days} days` : daily;
}

function Notes({ coverage }: { coverage: VehicleCoverage }) {
  const notes: React.ReactNode[] = [];
  if (coverage.is_declined)
    notes.push(
      <Badge key="declined" tone="warning">
        Declined
      </Badge>,
    );
  if (coverage.is_stacked === true)
    notes.push(
      <Badge key="stacked" tone="info">
        Stacked
      </Badge>,
    );
  if (coverage.is_stacked === false) notes.push(<Badge key="unstacked">Not stacked</Badge>);
  if (coverage.actual_cash_value) notes.push(<Badge key="acv">Actual cash value</Badge>);
  if (coverage.pip_deductible_applicability)
    notes.push(
      <Badge key="pip">
        PIP deductible: {enumLabel(PIP_DEDUCTIBLE_APPLICABILITIES, coverage.pip_deductible_applicability)}
      </Badge>,
    );
  return notes.length > 0 ? <span className="flex flex-wrap gap-1">{notes}</span> : <>{DASH}</>;
}

export function VehicleCoverages({ coverages, label }: { coverages: VehicleCoverage[]; label: string }) {
  const perMile = coverages.some((coverage) => coverage.per_mile_premium_tenth_of_cents !== null);
  return (
    <DataTable
      label={label}
      rows={coverages}
      rowKey={(coverage) => coverage.vehicle_coverage_id}
      rowTestId="vehicle-coverage"
      columns={[
        { header: "Coverage", cell: (coverage) => coverage.friendly_name ?? humanize(coverage.name) },
        {
          header: "Per person",
          numeric: true,
          cell: (coverage) =>
            coverage.is_declined ? DASH : limit(coverage.per_person_limit_cents, coverage.per_person_unlimited),
        },
        {
          header: "Per incident",
          numeric: true,
          cell: (coverage) =>
            coverage.is_declined ? DASH : limit(coverage.per_incident_limit_cents, coverage.per_incident_unlimited),
        },
        { header: "Per day", numeric: true, cell: (coverage) => (coverage.is_declined ? DASH : perDay(coverage)) },
        { header: "Deductible", numeric: true, cell: (coverage) => formatLimit(coverage.deductible_cents) },
        { header: "Premium", numeric: true, cell: (coverage) => formatCents(coverage.premium_cents) },
        ...(perMile
          ? [
              {
                header: "Per mile",
                numeric: true,
                cell: (coverage: VehicleCoverage) => formatTenthsOfCents(coverage.per_mile_premium_tenth_of_cents),
              },
            ]
          : []),
        { header: "Notes", cell: (coverage) => <Notes coverage={coverage} /> },
      ]}
    />
  );
}
