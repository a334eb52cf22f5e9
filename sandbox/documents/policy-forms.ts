import type { SandboxPull } from "../data/pulls";
import type { PdfPage } from "./pdf";

// Policy forms and endorsements (spec 2.3 forms_and_endorsements, in the published examples'
// shape): found by policy_form_id across the book, since GET /policyForms/{policyFormId} names
// no pull.

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [];
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

export type PolicyFormFile = {
  formId: string;
  name: string;
  number: string | null;
  policyNumber: string | null;
  carrier: string | null;
  edition: string | null;
};

export function getPolicyForm(pulls: Iterable<SandboxPull>, formId: string): PolicyFormFile | null {
  for (const pull of pulls) {
    for (const policy of rows(pull.policies)) {
      const form = rows(policy.forms_and_endorsements).find((f) => f.policy_form_id === formId);
      if (form) {
        return {
          formId,
          name: str(form.form_name) ?? "Policy form",
          number: str(form.form_number),
          policyNumber: str(policy.carrier_policy_number),
          carrier: str(policy.carrier_friendly_name),
          edition: str(form.edition_date),
        };
      }
    }
  }
  return null;
}

export function policyFormPage(form: PolicyFormFile): PdfPage {
  return {
    title: form.number ? `${form.number} ${form.name}` : form.name,
    lines: [
      `Carrier: ${form.carrier ?? "unknown"}`,
      `Policy: ${form.policyNumber ?? "-"}`,
      `Edition: ${form.edition ?? "unknown"}`,
      `Form id: ${form.formId}`,
      "",
      "Sandbox form: generated test data, not a real policy form.",
    ],
  };
}
