import { DataTable } from "@/components/ui/data-table";
import { FieldList } from "@/components/ui/field-list";
import { DASH, formatAddress, formatCents, formatPercent, humanize, labelFromKey, yesNo } from "@/lib/format";
import { CalendarDate } from "./dates";
import { Heading, type HeadingLevel } from "./detail-section";
import {
  describeLooseValue,
  isIdKey,
  readsAsEnum,
  splitRecord,
  tableKeys,
  visibleKeys,
  type LooseRecord,
} from "./loose-values";

const shown = (text: string) => (readsAsEnum(text) ? humanize(text) : text);

// Renders the policy parts whose fields the spec does not publish, whatever their shape:
// simple values as fields, lists of records as tables, nested objects below their parent.

/** A nested record squeezed into a table cell: "name: Lois Lane · type: Primary". */
function compactText(record: LooseRecord): string {
  const parts = visibleKeys([record]).flatMap((key) => {
    const value = describeLooseValue(key, record[key]);
    switch (value.kind) {
      case "empty":
        return [];
      case "money":
        return [`${labelFromKey(key)}: ${formatCents(value.cents)}`];
      case "address":
        return [`${labelFromKey(key)}: ${formatAddress(value.address)}`];
      case "records":
        return [`${labelFromKey(key)}: ${value.rows.map(compactText).join("; ")}`];
      case "record":
        return [`${labelFromKey(key)}: ${compactText(value.record)}`];
      case "boolean":
        return [`${labelFromKey(key)}: ${yesNo(value.value)}`];
      case "list":
        return [`${labelFromKey(key)}: ${value.items.join(", ")}`];
      default:
        return [`${labelFromKey(key)}: ${"text" in value ? value.text : value.iso}`];
    }
  });
  return parts.join(" · ") || DASH;
}

export function LooseValueView({ name, value }: { name: string; value: unknown }) {
  const described = describeLooseValue(name, value);
  switch (described.kind) {
    case "empty":
      return <>{DASH}</>;
    case "money":
      return <span className="tabular-nums">{formatCents(described.cents)}</span>;
    case "date":
      return <CalendarDate value={described.iso} />;
    case "percent":
      return <>{formatPercent(described.text)}</>;
    case "boolean":
      return <>{yesNo(described.value)}</>;
    case "list":
      return <>{described.items.map(shown).join(", ")}</>;
    case "address":
      return <>{formatAddress(described.address)}</>;
    case "records":
      return <>{described.rows.map(compactText).join("; ")}</>;
    case "record":
      return <>{compactText(described.record)}</>;
    case "text":
      return <>{shown(described.text)}</>;
  }
}

export function LooseTable({ label, rows, testId }: { label: string; rows: LooseRecord[]; testId?: string }) {
  const keys = tableKeys(rows);
  if (keys.length === 0) return null;
  return (
    <DataTable
      label={label}
      rows={rows}
      rowTestId={testId}
      rowKey={(row, index) => {
        const id = Object.keys(row).find(isIdKey);
        const value = id ? row[id] : undefined;
        return typeof value === "string" ? value : String(index);
      }}
      columns={keys.map((key) => ({
        header: labelFromKey(key),
        cell: (row: LooseRecord) => <LooseValueView name={key} value={row[key]} />,
      }))}
    />
  );
}

/** `level`: the heading level of its nested parts, one below the heading it sits under. */
export function LooseRecordView({
  record,
  label,
  level = 5,
}: {
  record: LooseRecord;
  label: string;
  level?: HeadingLevel;
}) {
  const below: HeadingLevel = level === 3 ? 4 : level === 4 ? 5 : 6;
  const { fields, nested } = splitRecord(record);
  return (
    <div className="space-y-4">
      {fields.length > 0 ? (
        <FieldList
          columns={4}
          fields={fields.map((key) => ({
            label: labelFromKey(key),
            value: <LooseValueView name={key} value={record[key]} />,
          }))}
        />
      ) : null}
      {nested.map((key) => {
        const described = describeLooseValue(key, record[key]);
        const title = labelFromKey(key);
        return (
          <div key={key}>
            <Heading level={level} className="mb-2 text-sm font-semibold text-slate-700">
              {title}
            </Heading>
            {/* One record reads better as fields than as a one-row table wider than the screen. */}
            {described.kind === "records" && described.rows.length === 1 && described.rows[0] ? (
              <LooseRecordView record={described.rows[0]} label={`${label}: ${title}`} level={below} />
            ) : null}
            {described.kind === "records" && described.rows.length > 1 ? (
              <LooseTable label={`${label}: ${title}`} rows={described.rows} />
            ) : null}
            {described.kind === "record" ? (
              <LooseRecordView record={described.record} label={`${label}: ${title}`} level={below} />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
