import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IDLE, type FormAction } from "@/lib/core/form-state";
import { ActionForm, SubmitButton, type ActionFormRender } from "./action-form";

// The one form pattern, as the server draws it before any submit.

const action: FormAction = async () => IDLE;

describe("ActionForm", () => {
  it("draws the fields, then one submit button with its label, named as asked", () => {
    const html = renderToStaticMarkup(
      createElement(
        ActionForm,
        { action, "aria-label": "Stage", submitLabel: "Save stage" },
        createElement("input", { type: "hidden", name: "pullId", value: "p1" }),
      ),
    );
    expect(html).toMatch(/^<form[^>]*class="space-y-2" aria-label="Stage"/);
    expect(html).toContain('<input type="hidden" name="pullId" value="p1"/>');
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(html).toMatch(/<button type="submit" class="[^"]*bg-brand-700[^"]*">Save stage<\/button>/);
    // No message before an answer: the status region appears with the outcome.
    expect(html).not.toMatch(/role="(status|alert)"/);
  });

  it("marks no field invalid before an answer, and can disable the submit while nothing changed", () => {
    const seen: Array<ReturnType<ActionFormRender["invalid"]>> = [];
    // Called from a component of its own, so its hooks run inside a render.
    const Probe = () =>
      ActionForm({
        action,
        submitLabel: "Save",
        submitVariant: "secondary",
        submitDisabled: true,
        children: ({ invalid }) => {
          seen.push(invalid("premium"));
          return null;
        },
      });
    const html = renderToStaticMarkup(createElement(Probe));
    expect(seen).toEqual([{}]);
    expect(html).toMatch(/<button type="submit" class="[^"]*border-slate-300[^"]*" disabled="">Save<\/button>/);
  });

  it("draws no button of its own when the fields place their submit buttons, each posting its intent", () => {
    const html = renderToStaticMarkup(
      createElement(
        ActionForm,
        { action, "aria-label": "Your answer" },
        createElement(SubmitButton, { name: "answer", value: "confirm", pendingLabel: "Sending…" }, "Confirm"),
        createElement(SubmitButton, { name: "answer", value: "decline", variant: "secondary" }, "Decline"),
      ),
    );
    expect(html.match(/<button/g)).toHaveLength(2);
    // Both submit the form (React renders a button's value before its name).
    expect(html).toMatch(/<button type="submit" class="[^"]*bg-brand-700[^"]*" value="confirm" name="answer">Confirm</);
    expect(html).toMatch(
      /<button type="submit" class="[^"]*border-slate-300[^"]*" value="decline" name="answer">Decline</,
    );
    expect(html).not.toContain(`disabled=""`);
  });
});
