// A definition list of label/value pairs: the building block of every detail section.
export type Field = { label: string; value: React.ReactNode };

export function FieldList({ fields, columns = 3 }: { fields: Field[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <dl className={`grid grid-cols-1 gap-x-6 gap-y-3 ${grid}`}>
      {fields.map((field) => (
        <div key={field.label}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{field.label}</dt>
          <dd className="mt-0.5 text-sm break-words text-slate-900">{field.value}</dd>
        </div>
      ))}
    </dl>
  );
}
