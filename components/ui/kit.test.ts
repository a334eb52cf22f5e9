import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Button, buttonClass } from "./button";
import { Card } from "./card";
import { Field, type FieldControlProps } from "./field";
import { Input } from "./input";
import { PageHeader } from "./page-header";
import { Select } from "./select";
import { TabLink } from "./tab-link";

// The kit: what screen readers and the e2e specs find in it, and the look each variant picks.

const html = (element: React.ReactElement) => renderToStaticMarkup(element);

describe("Button", () => {
  it("is a plain button unless told to submit, and passes names, values and test ids through", () => {
    expect(html(createElement(Button, null, "Go"))).toContain('<button type="button"');
    const submit = html(
      createElement(
        Button,
        { type: "submit", name: "answer", value: "yes", disabled: true, ...({ "data-testid": "go" } as object) },
        "Go",
      ),
    );
    for (const attribute of ['type="submit"', 'name="answer"', 'value="yes"', 'data-testid="go"', 'disabled=""'])
      expect(submit).toContain(attribute);
    expect(submit).toContain(">Go</button>");
  });

  it("draws each variant in the app's colours, and appends the caller's classes", () => {
    expect(buttonClass()).toBe(
      "rounded-md bg-brand-700 font-medium text-white hover:bg-brand-900 px-3 py-1.5 text-sm disabled:opacity-50",
    );
    expect(buttonClass({ variant: "secondary" })).toContain("border-slate-300 bg-white hover:bg-slate-100");
    expect(buttonClass({ variant: "danger" })).toContain("text-red-700");
    expect(buttonClass({ size: "sm" })).toContain("px-2 py-1 text-xs");
    expect(buttonClass({ className: "w-full" }).endsWith(" w-full")).toBe(true);
  });
});

describe("Field", () => {
  const render = (props: { hint?: string; error?: string }) =>
    html(
      Field({
        id: "premium",
        label: "Premium",
        ...props,
        children: (control: FieldControlProps) => createElement(Input, { name: "premium", ...control }),
      }),
    );

  it("labels its control and describes it by its hint", () => {
    const out = render({ hint: "Per year" });
    expect(out).toContain('<label for="premium"');
    expect(out).toContain('id="premium" aria-describedby="premium-hint"');
    expect(out).toContain('<p id="premium-hint"');
    expect(out).not.toContain("aria-invalid");
  });

  it("marks the control invalid and describes it by the error too while one shows", () => {
    const out = render({ hint: "Per year", error: "Not an amount <b>" });
    expect(out).toContain('aria-describedby="premium-hint premium-error" aria-invalid="true"');
    expect(out).toContain('<p id="premium-error" class="mt-0.5 text-xs text-red-700">Not an amount &lt;b&gt;</p>');
  });

  it("marks a field refused elsewhere invalid without repeating the message", () => {
    const out = html(
      Field({
        id: "vin",
        label: "VIN",
        invalid: true,
        children: (control: FieldControlProps) => createElement(Input, { name: "vin", ...control }),
      }),
    );
    expect(out).toContain('id="vin" aria-invalid="true"');
    expect(out).not.toContain("aria-describedby");
    expect(out).not.toContain("text-red-700");
  });

  it("gives a bare control no describedby at all", () => {
    expect(render({})).toMatch(/<input[^>]*id="premium"[^>]*>/);
    expect(render({})).not.toContain("aria-describedby");
  });
});

describe("Input, Select, Card, PageHeader", () => {
  it("share the field style and keep the caller's attributes", () => {
    expect(html(createElement(Input, { name: "q", className: "w-24" }))).toBe(
      '<input class="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm w-24" name="q"/>',
    );
    expect(html(createElement(Select, { name: "s" }, createElement("option", { value: "" }, "Any")))).toContain(
      '<select class="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm" name="s">',
    );
    expect(html(createElement(Card, { className: "space-y-3" }, "x"))).toBe(
      '<section class="rounded-lg border border-slate-200 bg-white p-4 space-y-3">x</section>',
    );
  });

  it("gives the page one h1, its description under it and the actions beside it", () => {
    const out = html(createElement(PageHeader, { title: "Reports", description: "What was won" }, "CSV"));
    expect(out.match(/<h1/g)).toHaveLength(1);
    expect(out).toContain('<h1 class="text-2xl font-semibold break-words text-slate-900">Reports</h1><p');
    expect(out).toMatch(/justify-between.*CSV<\/div>$/);
    expect(html(createElement(PageHeader, { title: "Coverdesk", tone: "brand" }))).toContain(
      '<h1 class="text-2xl font-semibold break-words text-brand-900">Coverdesk</h1>',
    );
    expect(html(createElement(PageHeader, { title: "Users" }))).toBe(
      '<div class="min-w-0"><h1 class="text-2xl font-semibold break-words text-slate-900">Users</h1></div>',
    );
  });
});

describe("TabLink", () => {
  it("marks only the current view, as the page or as one choice of several", () => {
    const current = html(createElement(TabLink, { href: "/alerts?view=open", current: true }, "Open"));
    expect(current).toContain('aria-current="page"');
    expect(current).toContain("bg-brand-700");
    const choice = html(createElement(TabLink, { href: "/alerts", current: true, currentAs: "true" }, "Mine"));
    expect(choice).toContain('aria-current="true"');
    const other = html(createElement(TabLink, { href: "/alerts?view=done", current: false, boxed: true }, "Done"));
    expect(other).not.toContain("aria-current");
    expect(other).toContain("border-slate-300");
  });
});
