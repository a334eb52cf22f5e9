import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { compareProperty } from "@/lib/enrichment/compare";
import type { EnrichmentPanel as Panel } from "@/lib/enrichment/panel";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { EnrichmentPanel } from "./enrichment-panel";

// The public-records panel as the server sends it: a kept answer shows who asked, when and why,
// with no button to pay again; a look-up not yet asked (or failed) shows its button; names and
// addresses from the carrier or the service are text, never markup.

const HOSTILE = `<img src=x onerror="alert(1)">&amp;"'`;
const at = new Date("2026-06-01T15:04:00Z");
const kept = {
  status: "ANSWERED" as const,
  kept: true,
  canAskAgain: false,
  askedByName: `Ann ${HOSTILE}`,
  askedAt: at,
  answeredAt: at,
  purpose: null,
  note: null,
};

const panel = (overrides: Partial<Panel> = {}): Panel => ({
  pullId: "11111111-2222-4333-8444-000000000001",
  canRequest: true,
  homes: [
    {
      subjectKey: "dwelling:d1",
      address: `12 Elm ST ${HOSTILE}, Austin, TX 78701`,
      answer: {
        ...kept,
        comparison: compareProperty(
          { year_built: 1987, square_ft: 2000, construction_type: HOSTILE },
          { year_built: 1992, square_ft: 2000, construction_type: "FRAME" },
          at,
        ),
      },
    },
    { subjectKey: "dwelling:d2", address: "4 Oak AVE, Austin, TX 78702", answer: null },
  ],
  drivers: [
    {
      subjectKey: "driver:p1",
      name: `Maria ${HOSTILE}`,
      dateOfBirthOnFile: true,
      licenceOnFile: false,
      blocked: null,
      licence: {
        ...kept,
        purpose: "Insurance rating or underwriting (by an insurer or its agent)",
        facts: { name: `Maria ${HOSTILE}`, licence: "D1234567", state: "TX", maritalStatus: "MARRIED" },
      },
      record: null,
    },
  ],
  ...overrides,
});

const noAction = async () => ({ status: "idle" as const });
const render = (value: Panel) =>
  renderToStaticMarkup(createElement(EnrichmentPanel, { panel: value, request: noAction }));

describe("the public-records panel", () => {
  it("shows kept answers with who asked and why, and a button only where nothing is kept", () => {
    const html = render(panel());
    expect(html).toContain("Year built differs: the carrier has 1987, public records say 1992 (5 years later).");
    expect(html).toContain("1 difference from what the carrier has on file.");
    expect(html).toContain("Permissible purpose: Insurance rating or underwriting (by an insurer or its agent)");
    expect(html).toContain("Kept on this account: it is not charged again.");
    // The kept home and the kept licence have no button; the new home and the driving record do.
    expect(html.match(/data-testid="enrichment-start"/g)).toHaveLength(2);
    expect(html).toContain("Look up property data");
    expect(html).toContain("Look up the driving record");
    expect(html).not.toContain("Look up the driver licence");
  });

  it("renders hostile names, addresses and values as text", () => {
    const html = render(panel());
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    // A carrier's own wording is shown as written (escaped), not read as a code.
    expect(html).toContain("<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;&quot;&#x27;</td>");
  });

  it("offers no look-up to a viewer who may not ask, and says who can", () => {
    const html = render(panel({ canRequest: false }));
    expect(html).not.toContain('data-testid="enrichment-start"');
    expect(html).toContain("Only the account&#x27;s agent, a manager or an admin can ask for one.");
  });

  it("says why a failed look-up failed, and offers to ask again", () => {
    const html = render(
      panel({
        homes: [
          {
            subjectKey: "dwelling:d1",
            address: "12 Elm ST, Austin, TX 78701",
            answer: {
              ...kept,
              status: "FAILED",
              kept: false,
              canAskAgain: true,
              note: "The service could not be reached.",
              comparison: null,
            },
          },
        ],
        drivers: [],
      }),
    );
    expect(html).toContain("The service could not be reached.");
    expect(html).toContain("Look up property data again");
  });
});

describe("the look-up in the pull's history", () => {
  it("says what was looked up, about whom, why, and how it went", () => {
    const sentence = (details: Record<string, unknown>) =>
      auditSentence({ action: "ENRICHMENT_REQUESTED", actorName: "Alex Agent", details });
    expect(
      sentence({
        kind: "DRIVING_RECORD",
        subject: "Maria Garcia",
        purpose: "INSURANCE_UNDERWRITING",
        status: "ANSWERED",
      }),
    ).toBe(
      "Alex Agent looked up the driving record for Maria Garcia (permissible purpose: Insurance rating or underwriting (by an insurer or its agent)): answered",
    );
    expect(sentence({ kind: "PROPERTY_DATA", subject: "12 Elm ST, Austin, TX 78701", status: "NO_DATA" })).toBe(
      "Alex Agent looked up the property data for 12 Elm ST, Austin, TX 78701: no record found",
    );
    expect(sentence({ kind: "DRIVER_LICENSE", status: "FAILED", error: "FORBIDDEN" })).toBe(
      "Alex Agent looked up the driver licence: failed, FORBIDDEN",
    );
  });
});
