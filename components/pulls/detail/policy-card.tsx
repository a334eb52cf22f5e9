import { LINK_CLASS } from "@/components/ui/link-class";
import { Badge } from "@/components/ui/badge";
import { FieldList, type Field } from "@/components/ui/field-list";
import { formatCents, text, yesNo } from "@/lib/format";
import type { Policy } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { SubHeading } from "./detail-section";
import { LooseRecordView, LooseTable } from "./loose-fields";
import { NamedInsureds } from "./named-insureds";
import { PolicyForms } from "./policy-forms";
import { policyLabel, vehicleTitle } from "./pull-lookups";
import { FORMS_OF_BUSINESS, PAYMENT_FREQUENCIES, POLICY_STATUSES, POLICY_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// One policy: its term, money and payment terms, who it names, its forms (each opening its PDF)
// and premium groups, and links down to the vehicles, homes and business records shown in
// their own sections.

const STATUS_TONES: Record<string, "success" | "warning" | "danger" | "neutral" | "info"> = {
  ACTIVE: "success",
  PENDING_CANCELLATION: "warning",
  PENDING_ACTIVATION: "info",
  QUOTE: "info",
  UNVERIFIED: "warning",
  CANCELLED: "danger",
  RESCINDED: "danger",
  EXPIRED: "neutral",
};

export const policyAnchor = (policyId: string) => `policy-${policyId}`;
export const vehicleAnchor = (vehicleId: string) => `vehicle-${vehicleId}`;
export const dwellingAnchor = (dwellingId: string) => `home-${dwellingId}`;

function termFields(policy: Policy): Field[] {
  const fields: Field[] = [
    { label: "Policy type", value: enumLabel(POLICY_TYPES, policy.policy_type) },
    { label: "Carrier", value: text(policy.carrier_friendly_name ?? policy.carrier_name) },
    { label: "Policy number", value: <span className="font-mono">{text(policy.carrier_policy_number)}</span> },
    { label: "Status", value: enumLabel(POLICY_STATUSES, policy.status) },
    { label: "Effective", value: <CalendarDate value={policy.effective_date} /> },
    { label: "Expires", value: <CalendarDate value={policy.expiry_date} /> },
    { label: "Renews", value: <CalendarDate value={policy.renewal_date} /> },
    { label: "Cancelled", value: <CalendarDate value={policy.canceled_date} /> },
    { label: "Premium", value: formatCents(policy.total_premium_cents) },
    { label: "Paid", value: formatCents(policy.amount_paid_cents) },
    { label: "Due", value: formatCents(policy.amount_due_cents) },
    { label: "Payment frequency", value: enumLabel(PAYMENT_FREQUENCIES, policy.payment_frequency) },
    { label: "Last payment", value: <CalendarDate value={policy.last_payment_date} /> },
    { label: "Paid in full", value: yesNo(policy.paid_in_full) },
    { label: "Monoline", value: yesNo(policy.is_monoline) },
    { label: "Telematics", value: yesNo(policy.is_telematics_enabled) },
    { label: "State", value: text(policy.state) },
    { label: "Form of business", value: enumLabel(FORMS_OF_BUSINESS, policy.form_of_business) },
  ];
  if (policy.deductible_cents !== null)
    fields.push({ label: "Policy deductible", value: formatCents(policy.deductible_cents) });
  if (policy.total_estimated_annual_premium_cents !== null)
    fields.push({ label: "Estimated annual premium", value: formatCents(policy.total_estimated_annual_premium_cents) });
  if (policy.total_minimum_premium_cents !== null)
    fields.push({ label: "Minimum premium", value: formatCents(policy.total_minimum_premium_cents) });
  if (policy.total_deposit_premium_cents !== null)
    fields.push({ label: "Deposit premium", value: formatCents(policy.total_deposit_premium_cents) });
  return fields;
}

function CoveredItems({ policy }: { policy: Policy }) {
  const links = [
    ...policy.vehicles.map((vehicle) => ({
      href: `#${vehicleAnchor(vehicle.vehicle_id)}`,
      label: vehicleTitle(vehicle),
      key: vehicle.vehicle_id,
    })),
    ...policy.dwellings.map((dwelling) => ({
      href: `#${dwellingAnchor(dwelling.dwelling_id)}`,
      label: dwelling.address?.full_address ?? "Home",
      key: dwelling.dwelling_id,
    })),
  ];
  if (links.length === 0) return null;
  return (
    <p className="mt-4 text-sm text-slate-700">
      Covers:{" "}
      {links.map((link, index) => (
        <span key={link.key}>
          {index > 0 ? ", " : null}
          <a href={link.href} className={LINK_CLASS}>
            {link.label}
          </a>
        </span>
      ))}
    </p>
  );
}

export function PolicyCard({ pullId, policy }: { pullId: string; policy: Policy }) {
  const label = policyLabel(policy);
  return (
    <article
      id={policyAnchor(policy.policy_id)}
      aria-label={label}
      className="scroll-mt-4 rounded-lg border border-slate-200 p-4"
      data-testid="policy"
    >
      <header className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold break-words text-slate-900">
            {enumLabel(POLICY_TYPES, policy.policy_type)} ·{" "}
            {policy.carrier_friendly_name ?? policy.carrier_name ?? "Unknown carrier"}
          </h3>
          {policy.name || policy.description ? (
            <p className="text-sm break-words text-slate-600">
              {[policy.name, policy.description].filter(Boolean).join(" — ")}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone={STATUS_TONES[policy.status ?? ""] ?? "neutral"}>
            {enumLabel(POLICY_STATUSES, policy.status)}
          </Badge>
          {policy.limited_access ? <Badge tone="warning">Limited access</Badge> : null}
        </div>
      </header>
      <FieldList columns={4} fields={termFields(policy)} />
      <CoveredItems policy={policy} />
      {policy.named_insureds.length > 0 ? (
        <>
          <SubHeading>Named insureds</SubHeading>
          <NamedInsureds insureds={policy.named_insureds} label={`${label}: named insureds`} />
        </>
      ) : null}
      {policy.forms_and_endorsements.length > 0 ? (
        <>
          <SubHeading>Forms and endorsements</SubHeading>
          <PolicyForms
            pullId={pullId}
            label={`${label}: forms and endorsements`}
            forms={policy.forms_and_endorsements}
          />
        </>
      ) : null}
      {policy.premium_groups.length > 0 ? (
        <>
          <SubHeading>Premium groups</SubHeading>
          <LooseTable label={`${label}: premium groups`} rows={policy.premium_groups} />
        </>
      ) : null}
      {policy.additional_interests.length > 0 ? (
        <>
          <SubHeading>Additional interests</SubHeading>
          <LooseTable label={`${label}: additional interests`} rows={policy.additional_interests} />
        </>
      ) : null}
      {policy.policy_check && Object.keys(policy.policy_check).length > 0 ? (
        <>
          <SubHeading>Policy check</SubHeading>
          <LooseRecordView record={policy.policy_check} label={`${label}: policy check`} />
        </>
      ) : null}
    </article>
  );
}
