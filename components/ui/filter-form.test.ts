import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DateRangeFields, FilterForm } from "./filter-form";
import { FilterSelect } from "./filter-select";

// The one filter form (reports, audit trail, events): a named GET form whose choices land in
// the URL, kept from the current filter, with Apply and a Clear link when there is something to clear.

const render = (props: Partial<Parameters<typeof FilterForm>[0]>) =>
  renderToStaticMarkup(
    createElement(
      FilterForm,
      { label: "Filter the audit trail", clearHref: "/admin/audit", ...props },
      createElement(FilterSelect, {
        name: "actor",
        label: "Who",
        anyLabel: "Anyone",
        value: "u2",
        options: [
          { value: "u1", label: "Ann" },
          { value: "u2", label: "Bo <b>" },
        ],
      }),
      createElement(DateRangeFields, { from: "2026-01-01", to: undefined }),
    ),
  );

describe("FilterForm", () => {
  it("is a named GET form whose fields keep the current filter, then Apply and Clear", () => {
    const html = render({});
    expect(html).toMatch(/^<form aria-label="Filter the audit trail" class="[^"]*" method="get">/);
    expect(html).toContain('<span class="text-xs text-slate-600">Who</span><select');
    expect(html).toContain('<option value="">Anyone</option>');
    expect(html).toContain('<option value="u2" selected="">Bo &lt;b&gt;</option>');
    expect(html).toContain('type="date" name="from" value="2026-01-01"');
    expect(html).toContain('type="date" name="to" value=""');
    expect(html).toMatch(/<button type="submit"[^>]*>Apply<\/button><a [^>]*href="\/admin\/audit">Clear<\/a><\/form>$/);
  });

  it("offers no Clear link when nothing is filtered, and posts where asked", () => {
    const html = render({ clearHref: null, action: "/pulls", submitLabel: "Filter" });
    expect(html).not.toContain("Clear");
    expect(html).toContain('action="/pulls"');
    expect(html).toContain(">Filter</button>");
  });
});
