import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { fullName } from "@/lib/format";
import type { NamedInsured } from "@/lib/service/schemas";
import { EmailLink, PhoneLink } from "./contact-links";

// The people a personal policy names, the primary one marked.

export function NamedInsureds({ insureds, label }: { insureds: NamedInsured[]; label: string }) {
  return (
    <DataTable
      label={label}
      rows={insureds}
      rowKey={(insured) => insured.named_insured_id}
      columns={[
        {
          header: "Name",
          cell: (insured) => (
            <span className="flex flex-wrap items-center gap-1.5">
              {insured.full_name ?? fullName(insured)}
              {insured.is_primary_named_insured ? <Badge tone="info">Primary</Badge> : null}
            </span>
          ),
        },
        { header: "Email", cell: (insured) => <EmailLink email={insured.email} /> },
        { header: "Mobile", cell: (insured) => <PhoneLink phone={insured.mobile_phone} /> },
        { header: "Home", cell: (insured) => <PhoneLink phone={insured.home_phone} /> },
        {
          header: "Work",
          cell: (insured) => <PhoneLink phone={insured.work_phone} extension={insured.work_phone_extension} />,
        },
      ]}
    />
  );
}
