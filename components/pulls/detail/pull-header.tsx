import { FieldList } from "@/components/ui/field-list";
import { formatInstant, fullName, humanize, text } from "@/lib/format";
import type { Pull } from "@/lib/service/schemas";
import { StatusBadge } from "../status-badge";

export function PullHeader({ pull }: { pull: Pull }) {
  const phones = [pull.phone, pull.mobile_phone, pull.home_phone, pull.work_phone].filter((p): p is string => Boolean(p));
  const emails = [pull.account_email, pull.email].filter((e): e is string => Boolean(e));
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{fullName(pull)}</h1>
          <p className="text-sm text-slate-600">{pull.insurance_provider_friendly_name ?? pull.insurance_provider_name ?? "Unknown provider"}</p>
        </div>
        <StatusBadge status={pull.status ?? "UNKNOWN"} />
      </div>
      <div className="mt-4">
        <FieldList
          columns={4}
          fields={[
            { label: "Email", value: emails.length ? [...new Set(emails)].join(", ") : "—" },
            { label: "Phone", value: phones.length ? [...new Set(phones)].join(", ") : "—" },
            { label: "Account identifier", value: text(pull.account_identifier) },
            { label: "Pull type", value: humanize(pull.type) },
            { label: "Linked", value: formatInstant(pull.created_at) },
            { label: "Policy check", value: humanize(pull.policy_check_status) },
            { label: "Link", value: text(pull.public_alias) },
            { label: "Pull ID", value: <span className="font-mono text-xs">{pull.pull_id}</span> },
          ]}
        />
      </div>
    </div>
  );
}
