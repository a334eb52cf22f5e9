import { AGENCY_DPPA_PURPOSES, DPPA_PURPOSE_WORDS } from "@/lib/enrichment/purposes";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// The two fields of an export or hand-off that carries driver data: the DPPA permissible purpose
// and the recipient ("internal use" when left empty), named as `disclosureFields`
// (lib/enrichment/disclosure-fields.ts) reads them, for the redisclosure log. Server-safe: it
// goes inside any ActionForm.

export function RedisclosureFields({ id, invalidField }: { id: string; invalidField?: string | null }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field id={`${id}-purpose`} label="Permissible purpose (DPPA)" invalid={invalidField === "purpose"}>
        {(control) => (
          <Select {...control} name="purpose" required defaultValue="" className="mt-1 block w-full">
            <option value="">Choose the purpose…</option>
            {AGENCY_DPPA_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {DPPA_PURPOSE_WORDS[purpose]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        id={`${id}-recipient`}
        label="Recipient"
        hint="Who receives the driver data; leave empty for internal use."
        invalid={invalidField === "recipient"}
      >
        {(control) => (
          <Input
            {...control}
            name="recipient"
            maxLength={200}
            placeholder="internal use"
            className="mt-1 block w-full"
          />
        )}
      </Field>
    </div>
  );
}
