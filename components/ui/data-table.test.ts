import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table";

// The one table: what the e2e specs and screen readers find in it.

type Row = { id: string; name: string; cents: number };
const columns: Column<Row>[] = [
  { header: "Name", cell: (row) => row.name, className: "font-mono" },
  { header: "Premium", numeric: true, cell: (row) => row.cents / 100 },
  { header: "Actions", hideHeader: true, cell: () => null },
];
const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]>) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, { label: "Things", columns, rows: [], rowKey: (row) => row.id, ...props }),
  );

describe("DataTable", () => {
  it("names its scroller, marks the table and each row for tests, and aligns figures", () => {
    const html = render({
      rows: [{ id: "a", name: "Ana <b>", cents: 12_345 }],
      testId: "things",
      rowTestId: "thing-row",
      caption: "Our things",
    });
    expect(html).toContain('role="region" aria-label="Things table" tabindex="0"');
    expect(html).toContain(
      '<table class="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="things">',
    );
    expect(html).toContain(">Our things</caption>");
    expect(html).toContain('data-testid="thing-row"');
    expect(html).toMatch(/<th scope="col" class="[^"]*text-right">Premium<\/th>/);
    // Class order is the formatter's to choose; the figure's cell must carry both.
    const figureCell = (html.match(/<td class="([^"]*)">123.45<\/td>/)?.[1] ?? "").split(" ");
    expect(figureCell).toEqual(expect.arrayContaining(["text-right", "tabular-nums"]));
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html).toMatch(/<td class="[^"]* font-mono">Ana &lt;b&gt;<\/td>/);
  });

  it("shows the empty state instead of a table when there are no rows, else an empty table", () => {
    expect(render({ empty: "Nothing yet." })).toBe("Nothing yet.");
    expect(render({})).toContain("<tbody");
    expect(render({ rows: [{ id: "a", name: "A", cents: 1 }], empty: "Nothing yet." })).not.toContain("Nothing yet.");
  });
});
