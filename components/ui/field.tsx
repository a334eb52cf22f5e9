import { cn } from "./class-names";

// A labelled control with an optional hint and error. The control gets its id, the ids of the
// hint and error in `aria-describedby` (so a screen reader reads them with it) and
// `aria-invalid` while it is refused; the caller spreads them onto the control:
//   <Field id={`${formId}-vin`} label="VIN" hint="17 characters">{(control) => <Input name="vin" {...control} />}</Field>
// `error` shows the refusal under the field; `invalid` only marks the field, for a form whose
// message already says it (ActionForm's). The id is the caller's, not `useId`, so the field
// renders in server components too.

export type FieldControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

export function fieldControlProps(
  id: string,
  { hint, error, invalid }: { hint?: boolean; error?: boolean; invalid?: boolean },
): FieldControlProps {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return {
    id,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
    ...(error || invalid ? { "aria-invalid": true as const } : {}),
  };
}

export function Field({
  id,
  label,
  hint,
  error,
  invalid = false,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  /** The refusal that concerns this field, shown under it in red. */
  error?: React.ReactNode;
  /** Refused, with the reason shown elsewhere. */
  invalid?: boolean;
  className?: string;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  return (
    <div {...(className ? { className: cn(className) } : {})}>
      <label htmlFor={id} className="block text-sm text-slate-700">
        {label}
      </label>
      {children(fieldControlProps(id, { hint: Boolean(hint), error: Boolean(error), invalid }))}
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-0.5 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
