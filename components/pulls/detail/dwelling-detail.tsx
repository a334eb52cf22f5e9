import { FieldList } from "@/components/ui/field-list";
import { formatCents, humanize, text } from "@/lib/format";
import type { Dwelling } from "@/lib/service/schemas";

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
        <ul className="mt-3 grid gap-1 text-sm sm:grid-cols-2">
          {dwelling.coverages.map((c) => (
            <li key={c.dwelling_coverage_id} className="flex justify-between gap-3">
              <span>{c.friendly_name ?? humanize(c.name)}</span>
              <span className="tabular-nums">
                {c.is_declined ? "Declined" : c.per_incident_limit_cents !== null ? formatCents(c.per_incident_limit_cents) : c.per_incident_limit_percent ? `${c.per_incident_limit_percent}%` : "—"}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
