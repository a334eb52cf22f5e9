import { Select } from "./select";

// A labelled select of a filter form (the pull list's, the X-dates'): "Any" first, then the
// options; the form is a plain GET, so the choice lands in the URL.

export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | number | undefined;
  options: Array<{ value: string; label: string }>;
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1">
      <span className="text-xs text-slate-600">{label}</span>
      <Select name={name} defaultValue={value === undefined ? "" : String(value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </label>
  );
}
