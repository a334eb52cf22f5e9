// A table of records that scrolls sideways inside its own box on narrow screens, so the page
// itself never does. The scroller is focusable and named ("… table", apart from its section),
// so keyboard users can scroll it too.

export type Column<Row> = {
  header: string;
  cell: (row: Row) => React.ReactNode;
  /** Right-aligned tabular figures for amounts. */
  numeric?: boolean;
};

export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
}: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row, index: number) => string;
  rowTestId?: string;
}) {
  return (
    <div role="region" aria-label={`${label} table`} tabIndex={0} className="overflow-x-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`whitespace-nowrap px-3 py-2 font-medium ${column.numeric ? "text-right" : ""}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)} className="align-top" data-testid={rowTestId}>
              {columns.map((column) => (
                <td key={column.header} className={`px-3 py-2 ${column.numeric ? "whitespace-nowrap text-right tabular-nums" : "min-w-[7rem] break-words"}`}>
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
