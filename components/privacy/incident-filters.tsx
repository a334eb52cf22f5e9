import type { IncidentFields } from "@/lib/audit/incident-scope";
import { FilterField, FilterForm } from "@/components/ui/filter-form";
import { FilterSelect } from "@/components/ui/filter-select";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";

// The incident-scope report's filters: a window (required, at most a year) and any of a user,
// a session and a client address. A GET form: the report's address can be shared and reloaded.

export function IncidentFilters({
  fields,
  people,
  refusal,
}: {
  fields: IncidentFields;
  people: Array<{ id: string; name: string; isActive: boolean }>;
  refusal: { message: string; field: string | null } | null;
}) {
  const invalid = (name: keyof IncidentFields) => (refusal?.field === name ? true : undefined);
  return (
    <div className="space-y-2">
      <FilterForm
        label="Scope the incident"
        clearHref="/admin/incident"
        submitLabel="Show the report"
        submitVariant="primary"
      >
        <FilterSelect
          name="user"
          label="User"
          anyLabel="Anyone"
          value={fields.user}
          options={people.map((p) => ({ value: p.id, label: p.isActive ? p.name : `${p.name} (deactivated)` }))}
        />
        <FilterField label="Session id">
          <Input
            name="session"
            defaultValue={fields.session}
            className="w-72 font-mono"
            aria-invalid={invalid("session")}
          />
        </FilterField>
        <FilterField label="IP address">
          <Input name="ip" defaultValue={fields.ip} className="w-48 font-mono" aria-invalid={invalid("ip")} />
        </FilterField>
        <FilterField label="From (UTC)">
          <Input type="datetime-local" name="from" defaultValue={fields.from} required aria-invalid={invalid("from")} />
        </FilterField>
        <FilterField label="To (UTC)">
          <Input type="datetime-local" name="to" defaultValue={fields.to} required aria-invalid={invalid("to")} />
        </FilterField>
      </FilterForm>
      {refusal ? <FormMessage state={{ status: "error", message: refusal.message }} /> : null}
    </div>
  );
}
