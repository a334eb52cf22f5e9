import { cn } from "./class-names";

// A labelled control with an optional hint and error. The control gets its id, the ids of the
// hint and error in `aria-describedby` (so a screen reader reads them with it) and
// `aria-invalid` while the error shows; the caller spreads them onto the control:
//   <Field id="note" label="Note" error={message}>{(control) => <Input name="note" {...control} />}</Field>
// The id is the caller's, not `useId`, so the field renders in server components too.

export type FieldControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

export function fieldControlProps(id: string, { hint, error }: { hint?: boolean; error?: boolean }): FieldControlProps {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return {
    id,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
    ...(error ? { "aria-invalid": true as const } : {}),
  };
}

export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  /** The refusal that concerns this field, shown under it in red. */
  error?: React.ReactNode;
  className?: string;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  return (
    <div className={cn("flex flex-col gap-1 text-sm", className)}>
      <label htmlFor={id} className="text-slate-700">
        {label}
      </label>
      {children(fieldControlProps(id, { hint: Boolean(hint), error: Boolean(error) }))}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
