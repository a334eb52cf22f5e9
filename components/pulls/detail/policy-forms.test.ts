import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parsePull, unwrapPull } from "@/lib/service/schemas";
import { PolicyForms } from "./policy-forms";

// A policy's forms on the pull page, from the service's published example: each form's name
// opens its PDF through Coverdesk's route; a form without an id or without a PDF is named only,
// and whatever the service writes stays text.

const PULL = "6a1f2e3d-4c5b-4a69-8788-99aabbccddee";
const example = parsePull(
  unwrapPull(JSON.parse(readFileSync("lib/service/fixtures/real/pulls/personal.json", "utf8")) as unknown),
);
if (!example.ok) throw new Error("the published example does not parse");
const forms = example.pull.policies.flatMap((policy) => policy.forms_and_endorsements);

const render = (rows = forms) =>
  renderToStaticMarkup(createElement(PolicyForms, { pullId: PULL, forms: rows, label: "Auto: forms" }));

describe("a policy's forms and endorsements", () => {
  it("links each form of the published example to its download through Coverdesk", () => {
    const html = render();
    const first = forms[0];
    expect(first?.policy_form_id).toBe("5eb50ce4-300b-45ae-b44f-44fa4662eaa7");
    expect(html).toContain(`href="/api/pulls/${PULL}/policy-forms/5eb50ce4-300b-45ae-b44f-44fa4662eaa7"`);
    expect(html).toContain("Your Nationwide Homeowners Policy");
    expect(html.match(/data-testid="policy-form-link"/g)).toHaveLength(forms.length);
    expect(html).toContain("H 02 03"); // the form number keeps its column
    expect(html).not.toContain(">Pdf available<");
  });

  it("names a form without an id or a PDF without a link, and keeps hostile names as text", () => {
    const html = render([
      { form_name: "No id" },
      { policy_form_id: "f-2", form_name: "No PDF", pdf_available: false },
      { policy_form_id: "f/../3", form_name: `<img src=x onerror=alert(1)>` },
    ]);
    expect(html.match(/data-testid="policy-form-link"/g)).toHaveLength(1);
    expect(html).toContain(">No id<");
    expect(html).toContain(">No PDF<");
    expect(html).toContain(`href="/api/pulls/${PULL}/policy-forms/f%2F..%2F3"`);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
