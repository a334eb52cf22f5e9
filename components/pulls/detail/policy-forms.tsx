import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { labelFromKey } from "@/lib/format";
import type { PolicyForm } from "@/lib/service/schemas";
import { policyFormHref } from "./download-links";
import { LooseValueView } from "./loose-fields";
import { tableKeys } from "./loose-values";

// A policy's forms and endorsements. The service does not publish their fields, so every field
// it sends gets a column; the form's name opens its PDF through our download route when the
// form has an id and the service says a PDF exists.

/** Shown by the first column: the name as the link, and whether a PDF exists by the link's presence. */
const FIRST_COLUMN_KEYS = new Set(["form_name", "pdf_available"]);

function FormName({ pullId, form }: { pullId: string; form: PolicyForm }) {
  const name = typeof form.form_name === "string" && form.form_name !== "" ? form.form_name : "Untitled form";
  const id = form.policy_form_id;
  if (typeof id !== "string" || id === "" || form.pdf_available === false) return <>{name}</>;
  return (
    <a
      href={policyFormHref(pullId, id)}
      target="_blank"
      rel="noopener"
      className={cn(LINK_CLASS, "font-medium break-words")}
      data-testid="policy-form-link"
    >
      {name}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

export function PolicyForms({ pullId, forms, label }: { pullId: string; forms: PolicyForm[]; label: string }) {
  const keys = tableKeys(forms).filter((key) => !FIRST_COLUMN_KEYS.has(key));
  return (
    <DataTable
      label={label}
      rows={forms}
      rowTestId="policy-form"
      rowKey={(form, index) => (typeof form.policy_form_id === "string" ? form.policy_form_id : String(index))}
      columns={[
        { header: "Form", cell: (form) => <FormName pullId={pullId} form={form} /> },
        ...keys.map((key) => ({
          header: labelFromKey(key),
          cell: (form: PolicyForm) => <LooseValueView name={key} value={form[key]} />,
        })),
      ]}
    />
  );
}
