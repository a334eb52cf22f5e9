import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DASH, formatCents, formatLimit, formatPercent } from "@/lib/format";
import type { DwellingCoverage } from "@/lib/service/schemas";
import { DWELLING_COVERAGE_NAMES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// A home's coverages. Carriers write a limit in dollars, as a share of the Dwelling
// (Coverage A) limit, in months (loss of use), or several of these at once: all are shown.

function incidentLimit(coverage: DwellingCoverage): string {
  if (coverage.per_incident_unlimited) return "Unlimited";
  const parts = [
    coverage.per_incident_limit_cents !== null ? formatLimit(coverage.per_incident_limit_cents) : null,
    coverage.per_incident_limit_percent !== null
      ? `${formatPercent(coverage.per_incident_limit_percent)} of dwelling`
      : null,
    coverage.per_incident_limit_months !== null ? `${coverage.per_incident_limit_months} months` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" · ") : DASH;
}

function deductible(coverage: DwellingCoverage): string {
  const parts = [
    coverage.deductible_cents !== null ? formatLimit(coverage.deductible_cents) : null,
    coverage.deductible_percent !== null ? `${formatPercent(coverage.deductible_percent)} of dwelling` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" · ") : DASH;
}

export function DwellingCoverages({ coverages, label }: { coverages: DwellingCoverage[]; label: string }) {
  return (
    <DataTable
      label={label}
      rows={coverages}
      rowKey={(coverage) => coverage.dwelling_coverage_id}
      rowTestId="dwelling-coverage"
      columns={[
        {
          header: "Coverage",
          cell: (coverage) => (
            <span className="flex flex-wrap items-center gap-1.5">
              {coverage.friendly_name ?? enumLabel(DWELLING_COVERAGE_NAMES, coverage.name)}
              {coverage.is_declined ? <Badge tone="warning">Declined</Badge> : null}
            </span>
          ),
        },
        { header: "Limit", numeric: true, cell: (coverage) => (coverage.is_declined ? DASH : incidentLimit(coverage)) },
        {
          header: "Per person",
          numeric: true,
          cell: (coverage) =>
            coverage.per_person_unlimited ? "Unlimited" : formatLimit(coverage.per_person_limit_cents),
        },
        {
          header: "Deductible",
          numeric: true,
          cell: (coverage) => (coverage.is_declined ? DASH : deductible(coverage)),
        },
        { header: "Premium", numeric: true, cell: (coverage) => formatCents(coverage.premium_cents) },
      ]}
    />
  );
}
