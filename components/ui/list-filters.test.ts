import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AgentFilter, FilterButtons, StageFilter } from "./list-filters";

// The filters the book's lists share: an agent chooses only among their own and the queue, a
// manager among everyone; the way back to the unfiltered view shows only when a filter is set.

const agents = [
  { id: "11111111-1111-4111-8111-111111111111", name: "Ann Agent" },
  { id: "22222222-2222-4222-8222-222222222222", name: "Otto Other" },
];

describe("the book's list filters", () => {
  it("offers a manager every agent and the queue, an agent only themselves and the queue", () => {
    const manager = renderToStaticMarkup(
      createElement(AgentFilter, { value: undefined, agents, seesAll: true, userId: "me" }),
    );
    expect(manager).toContain("Ann Agent");
    expect(manager).toContain("Otto Other");
    expect(manager).toContain('value="unassigned"');
    const agent = renderToStaticMarkup(
      createElement(AgentFilter, { value: "me", agents, seesAll: false, userId: "me" }),
    );
    expect(agent).not.toContain("Otto Other");
    expect(agent).toContain('<option value="me" selected="">Mine</option>');
    expect(agent).toContain('value="unassigned"');
  });

  it("lists every stage in words", () => {
    const html = renderToStaticMarkup(createElement(StageFilter, { value: "WON" }));
    expect(html).toContain('name="stage"');
    expect(html).toMatch(/<option value="WON" selected="">Won<\/option>/);
  });

  it("links back to the unfiltered view only when a filter is set", () => {
    const clear = (filtered: boolean) =>
      renderToStaticMarkup(createElement(FilterButtons, { filtered, clearHref: "/xdates?range=30" }));
    expect(clear(true)).toContain('href="/xdates?range=30"');
    expect(clear(true)).toContain("Clear filters");
    expect(clear(false)).not.toContain("Clear filters");
  });
});
