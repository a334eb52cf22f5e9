import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SourceRow } from "@/lib/reports/sources";
import { Sources } from "./sources-table";

// The per-link and per-agent tables as the server sends them: durations in words, the queue
// named, every table's CSV, and a word when the service did not name the links.

const base: SourceRow = {
  key: "w1",
  label: "Get a better quote in minutes",
  widgetId: "w1",
  alias: "get-a-quote",
  arrived: 12,
  completed: 10,
  assigned: 9,
  won: 3,
  lost: 1,
  wonCents: 123_456,
  closeRatio: 0.75,
  medianToFirstTouchMs: 12 * 60_000,
  medianToWonMs: 2 * 86_400_000,
  recycledWins: 2,
};
const render = (props: Partial<Parameters<typeof Sources>[0]> = {}) =>
  renderToStaticMarkup(
    createElement(Sources, {
      byLink: [base],
      byAgent: [
        { ...base, key: "", label: "No one", widgetId: null, alias: null, medianToFirstTouchMs: 3 * 3_600_000 },
      ],
      filter: { from: "2026-03-01" },
      namesAnswered: true,
      ...props,
    }),
  );

describe("sources and speed tables", () => {
  it("reads each figure in words, the link by its name with its alias beneath", () => {
    const html = render();
    const links = html.slice(
      html.indexOf('data-testid="sources-by-link-table"'),
      html.indexOf('data-testid="sources-by-agent"'),
    );
    for (const text of [
      "Get a better quote in minutes",
      "get-a-quote",
      ">12<",
      ">75%<",
      "$1,234.56",
      ">12 min<",
      ">2 days<",
      ">2<",
    ])
      expect(links).toContain(text);
    expect(links).toContain("/pulls?from=2026-03-01&amp;link=get-a-quote");
    const agents = html.slice(html.indexOf('data-testid="sources-by-agent-table"'));
    expect(agents).toContain("No one (the queue)");
    expect(agents).toContain(">3 h<");
    expect(agents).toContain("assignee=unassigned");
    expect(html).toContain("table=sourcesByLink");
    expect(html).toContain("table=sourcesByAgent");
    expect(html).not.toContain("did not name the links");
  });

  it("says when the links read as their aliases, and what to widen when nothing arrived", () => {
    expect(render({ namesAnswered: false })).toContain("The service did not name the links just now");
    expect(render({})).not.toContain("≈");
    const empty = render({ byLink: [], byAgent: [] });
    expect(empty).toContain("No accounts were linked in this range. Widen the dates.");
  });
});
