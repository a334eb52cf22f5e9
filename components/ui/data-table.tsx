// The one table of records. It is rendered on the server like the page around it: sorting and
// paging, where a list has them, are done in SQL and kept in the URL, so the table itself holds
// no state and ships no script (see docs/architecture.md, "Why our own table"). It scrolls sideways inside
// its own box on narrow screens, so the page itself never does; the scroller is focusable and
// named ("… table", apart from its section), so keyboard users can scroll it too.
// It is styled from the stylesheet (`.data-table` in app/globals.css), not by a class list on
// each element: a pull page draws twenty tables and hundreds of cells, and those repeated lists
// were a third of its HTML and of the React payload sent beside it.

export type Column<Row> = {
  header: string;
  /** The header is read to screen readers but not shown (a column of buttons, say). */
  hideHeader?: boolean;
  cell: (row: Row) => React.ReactNode;
  /** Right-aligned tabular figures for amounts and counts. */
  numeric?: boolean;
  /** Extra classes for this column's cells (monospace ids, red errors…). */
  className?: string;
  /** What the header means, on hover ("Median time from linking to WON"). */
  headerTitle?: string;
  /** This column's cells name their rows (`<th scope="row">`): a report's agent or link. */
  rowHeader?: boolean;
  /** `data-testid` of this column's cells. */
  testId?: string;
};

/** Data attributes of a body row, besides its test id (`data-rule`, `data-outcome`…). */
export type RowData = Record<`data-${string}`, string>;

export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowData,
  testId,
  empty,
  hideCaption = false,
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
  /** Data attributes of each body row, for tests and styles that pick rows by what they hold. */
  rowData?: (row: Row) => RowData;
  /** `data-testid` of the table element. */
  testId?: string;
  /** Shown instead of the table when there are no rows; without it an empty table is drawn. */
  empty?: React.ReactNode;
  /** The caption names the table for screen readers only (a figure around it shows the title). */
  hideCaption?: boolean;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const rowTestIdProp = testIdOf(rowTestId);
  const cellClasses = columns.map((column) => ({
    ...classOf(column.numeric ? "figure" : "", column.className ?? ""),
    ...testIdOf(column.testId),
  }));
  return (
    <div role="region" aria-label={`${label} table`} tabIndex={0} className="data-table-scroller">
      <table className="data-table" {...testIdOf(testId)}>
        {caption ? (
          <caption
            className={hideCaption ? "sr-only" : "bg-white px-3 py-2 text-left text-sm font-medium text-slate-900"}
          >
            {caption}
          </caption>
        ) : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                {...classOf(column.numeric ? "figure" : "")}
                {...(column.headerTitle ? { title: column.headerTitle } : {})}
              >
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)} {...rowTestIdProp} {...rowData?.(row)}>
              {columns.map((column, at) =>
                column.rowHeader ? (
                  <th key={at} scope="row" {...cellClasses[at]}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={at} {...cellClasses[at]}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// A body cell's key is its column's place, not its header: the payload spells every element's
// key, and a pull page's few hundred cells each repeated their column's title in it.

// An attribute only where it has a value: an element rendered on the server sends each of its
// props to the browser, and `className={undefined}` costs a "$undefined" on every cell.

function testIdOf(testId: string | undefined): { "data-testid"?: string } {
  return testId ? { "data-testid": testId } : {};
}

function classOf(...names: string[]): { className?: string } {
  const className = names.filter(Boolean).join(" ");
  return className ? { className } : {};
}
