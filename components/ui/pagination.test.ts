import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Pagination } from "./pagination";

// The pages of a list: a count that stopped at its cap still lets the reader page on.

const render = (props: Partial<Parameters<typeof Pagination>[0]>) =>
  renderToStaticMarkup(createElement(Pagination, { page: 1, pageCount: 1, basePath: "/pulls", ...props }));

describe("Pagination", () => {
  it("draws nothing for a single page, and links to the neighbours keeping the filters", () => {
    expect(render({})).toBe("");
    const html = render({ page: 2, pageCount: 3, query: { q: "smith", stage: undefined } });
    expect(html).toContain('href="/pulls?q=smith&amp;page=1"');
    expect(html).toContain('href="/pulls?q=smith&amp;page=3"');
    expect(html).toContain("Page 2 of 3");
  });

  it("takes a list's query as it is, numbers and its own page number included", () => {
    const html = render({ page: 2, pageCount: 3, basePath: "/xdates", query: { range: 30, page: 2, agent: "" } });
    expect(html).toContain('href="/xdates?range=30&amp;page=1"');
    expect(html).toContain('href="/xdates?range=30&amp;page=3"');
  });

  it("says 'of 200+' and offers Next past the last counted page when more pages follow", () => {
    const last = render({ page: 200, pageCount: 200, more: true });
    expect(last).toContain("Page 200 of 200+");
    expect(last).toContain('href="/pulls?page=201"');
    const beyond = render({ page: 201, pageCount: 200, more: false });
    expect(beyond).not.toContain("page=202");
    expect(beyond).toContain('href="/pulls?page=200"');
    expect(render({ page: 1, pageCount: 1, more: true })).toContain('href="/pulls?page=2"');
  });
});
