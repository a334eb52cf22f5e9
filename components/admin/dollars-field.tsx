import { Input } from "@/components/ui/input";
// An amount in whole dollars on the admin's rules forms, its label beside it: "$" shown, typed
// as the agent would ("100,000"); the command reads and checks it, and names it when wrong.

type Props = {
  name: string;
  label: string;
  value: string | number;
  invalid: boolean;
  /** Blank allowed (a rule turned off) unless required. */
  required?: boolean;
  placeholder?: string;
};

export function DollarsField({ name, label, value, invalid, required = false, placeholder }: Props) {
  return (
    <label className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span>{label}</span>
      <span className="flex items-center gap-1">
        <span aria-hidden="true" className="text-slate-500">
          $
        </span>
        <Input
          name={name}
          inputMode="decimal"
          required={required}
          defaultValue={value}
          placeholder={placeholder}
          aria-invalid={invalid || undefined}
          className="w-36"
        />
      </span>
    </label>
  );
}
