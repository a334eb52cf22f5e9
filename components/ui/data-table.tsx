// The one table of records. It is rendered on the server like the page around it: sorting and
// paging, where a list has them, are done in SQL and kept in the URL, so the table itself holds
// no state and ships no script (see the README, "Why our own table"). It scrolls sideways inside
// its own box on narrow screens, so the page itself never does; the scroller is focusable and
// named ("… table", apart from its section), so keyboard users can scroll it too.

export type Column<Row> = {
  header: string;
  /** The header is read to screen readers but not shown (a column of buttons, say). */
  hideHeader?: boolean;
  cell: (row: Row) => React.ReactNode;
  /** Right-aligned tabular figures for amounts and counts. */
  numeric?: boolean;
  /** Extra classes for this column's cells (monospace ids, red errors…). */
  className?: string;
};

export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowTestId,
  testId,
  empty,
}: {
  /** Names the scroller: "<label> table". */
  label: string;
  /** A visible title above the table, read as the table's name. */
  caption?: React.ReactNode;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row, index: number) => string;
  /** `data-testid` of each body row. */
  rowTestId?: string;
  /** `data-testid` of the table element. */
  testId?: string;
  /** Shown instead of the table when there are no rows; without it an empty table is drawn. */
  empty?: React.ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <div
      role="region"
      aria-label={`${label} table`}
      tabIndex={0}
      className="overflow-x-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid={testId}>
        {caption ? (
          <caption className="bg-white px-3 py-2 text-left text-sm font-medium text-slate-900">{caption}</caption>
        ) : null}
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`px-3 py-2 font-medium whitespace-nowrap ${column.numeric ? "text-right" : ""}`}
              >
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)} className="align-top" data-testid={rowTestId}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`px-3 py-2 ${column.numeric ? "text-right whitespace-nowrap tabular-nums" : "min-w-[7rem] break-words"} ${column.className ?? ""}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
