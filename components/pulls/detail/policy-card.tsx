import { FieldList } from "@/components/ui/field-list";
import { formatCalendarDate, formatCents, humanize, text, yesNo } from "@/lib/format";
import type { Policy } from "@/lib/service/schemas";
import { DwellingDetail } from "./dwelling-detail";
import { VehicleDetail } from "./vehicle-detail";

export function PolicyCard({ policy }: { policy: Policy }) {
  return (
    <article className="rounded-lg border border-slate-200 bg-white p-5" data-testid="policy">
      <header className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">
          {humanize(policy.policy_type)} · {policy.carrier_friendly_name ?? policy.carrier_name ?? "Unknown carrier"}
        </h3>
        <span className="text-sm text-slate-600">{humanize(policy.status)}</span>
      </header>
      <FieldList
        columns={4}
        fields={[
          { label: "Policy number", value: text(policy.carrier_policy_number) },
          { label: "Premium", value: formatCents(policy.total_premium_cents) },
          { label: "Effective", value: formatCalendarDate(policy.effective_date) },
          { label: "Expires", value: formatCalendarDate(policy.expiry_date) },
          { label: "Payment frequency", value: humanize(policy.payment_frequency) },
          { label: "Paid in full", value: yesNo(policy.paid_in_full) },
          { label: "Amount due", value: formatCents(policy.amount_due_cents) },
          { label: "State", value: text(policy.state) },
        ]}
      />
      {policy.vehicles.length > 0 ? (
        <div className="mt-5 space-y-4">
          <h4 className="text-sm font-semibold text-slate-700">Vehicles</h4>
          {policy.vehicles.map((vehicle) => <VehicleDetail key={vehicle.vehicle_id} vehicle={vehicle} />)}
        </div>
      ) : null}
      {policy.dwellings.length > 0 ? (
        <div className="mt-5 space-y-4">
          <h4 className="text-sm font-semibold text-slate-700">Dwellings</h4>
          {policy.dwellings.map((dwelling) => <DwellingDetail key={dwelling.dwelling_id} dwelling={dwelling} />)}
        </div>
      ) : null}
    </article>
  );
}
