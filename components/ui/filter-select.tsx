import { FilterField } from "./filter-form";
import { Select } from "./select";

// A labelled select of a filter form: "Any" (or `anyLabel`) first, then the options; the form is
// a plain GET, so the choice lands in the URL.

export function FilterSelect({
  name,
  label,
  value,
  options,
  anyLabel = "Any",
}: {
  name: string;
  label: string;
  value: string | number | undefined | null;
  options: Array<{ value: string; label: string }>;
  anyLabel?: string;
}) {
  return (
    <FilterField label={label}>
      <Select name={name} defaultValue={value === undefined || value === null ? "" : String(value)}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </FilterField>
  );
}
