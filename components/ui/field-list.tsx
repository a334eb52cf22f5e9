// A definition list of label/value pairs: the building block of every detail section. Labels and
// values are styled from the stylesheet (`.field-list` in app/globals.css): a pull page draws a
// few hundred of them, and a class list on each was a large share of its bytes.
export type Field = { label: string; value: React.ReactNode };

export function FieldList({ fields, columns = 3 }: { fields: Field[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <dl className={`field-list grid grid-cols-1 gap-x-6 gap-y-3 ${grid}`}>
      {/* Keyed by place: a label as key is spelled a second time in the payload, for every field. */}
      {fields.map((field, index) => (
        <div key={index}>
          <dt>{field.label}</dt>
          <dd>{field.value}</dd>
        </div>
      ))}
    </dl>
  );
}
