import { readFileSync } from "node:fs";
import { createElement, isValidElement } from "react";
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
    expect(html).toContain('<table class="data-table" data-testid="things">');
    expect(html).toContain(">Our things</caption>");
    expect(html).toContain('data-testid="thing-row"');
    // Figures are marked in their header and cells; the stylesheet aligns them.
    expect(html).toContain('<th scope="col" class="figure">Premium</th>');
    expect(html).toContain('<td class="figure">123.45</td>');
    expect(html).toContain('<span class="sr-only">Actions</span>');
    // A column's own classes reach its cells; text cells carry no class of their own.
    expect(html).toContain('<td class="font-mono">Ana &lt;b&gt;</td>');
    expect(html).toContain('<th scope="col">Name</th>');
  });

  it("is styled from the stylesheet: figures right-aligned in tabular digits, cells padded", () => {
    // The cells carry no utility classes (the page would repeat them hundreds of times), so the
    // look lives in these rules; losing one would silently misalign every table.
    const css = readFileSync(new URL("../../app/globals.css", import.meta.url), "utf8");
    const rule = (selector: string) => {
      const start = css.indexOf(`${selector} {`);
      return start < 0 ? "" : css.slice(start, css.indexOf("}", start));
    };
    expect(rule(".data-table > * > tr > .figure")).toMatch(/text-right.*tabular-nums|tabular-nums.*text-right/);
    expect(rule(".data-table > tbody > tr > td")).toContain("px-3 py-2");
    expect(rule(".data-table > thead > tr > th")).toContain("px-3 py-2");
    expect(rule(".field-list > div > dt")).toContain("uppercase");
  });

  it("can name each row by its first cell, explain a header on hover, and caption for screen readers only", () => {
    const html = renderToStaticMarkup(
      createElement(DataTable<Row>, {
        label: "By agent",
        caption: "Arrivals by agent",
        hideCaption: true,
        columns: [
          { header: "Agent", rowHeader: true, cell: (row) => row.name },
          { header: "Won", headerTitle: "Marked WON", numeric: true, testId: "won", cell: (row) => row.cents },
        ],
        rows: [{ id: "a", name: "Ann", cents: 3 }],
        rowKey: (row) => row.id,
        rowData: (row) => ({ "data-agent": row.id }),
      }),
    );
    expect(html).toContain('<caption class="sr-only">Arrivals by agent</caption>');
    expect(html).toContain('<th scope="col" class="figure" title="Marked WON">Won</th>');
    // Rows and cells can be picked by what they hold (tests find a rule's row, its on-file cell).
    expect(html).toContain(
      '<tr data-agent="a"><th scope="row">Ann</th><td class="figure" data-testid="won">3</td></tr>',
    );
  });

  it("shows the empty state instead of a table when there are no rows, else an empty table", () => {
    expect(render({ empty: "Nothing yet." })).toBe("Nothing yet.");
    expect(render({})).toContain("<tbody");
    expect(render({ rows: [{ id: "a", name: "A", cents: 1 }], empty: "Nothing yet." })).not.toContain("Nothing yet.");
  });

  it('gives no element a prop without a value, which a server page would send as "$undefined"', () => {
    // Rendered on the server, every prop of every element goes to the browser in the page's
    // payload, undefined ones included: a 20-row table of 5 columns would carry 100 of them.
    const props: Record<string, unknown>[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (isValidElement(node)) {
        props.push(node.props as Record<string, unknown>);
        walk((node.props as { children?: unknown }).children);
      }
    };
    walk(
      DataTable<Row>({
        label: "Things",
        columns,
        rows: [
          { id: "a", name: "A", cents: 1 },
          { id: "b", name: "B", cents: 2 },
        ],
        rowKey: (row) => row.id,
      }),
    );
    expect(props.length).toBeGreaterThan(10);
    const empty = props.flatMap((p) => Object.keys(p).filter((key) => key !== "children" && p[key] === undefined));
    expect(empty).toEqual([]);
  });
});
