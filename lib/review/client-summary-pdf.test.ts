import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfText } from "@/test/pdf-text";
import { buildClientSummaryPdf, type ClientSummary } from "./client-summary-pdf";
import type { Finding } from "./finding";
import { winAnsi } from "./pdf-text";

// The client summary as bytes: one page whatever it holds, read back with pdf-lib; the agency,
// the household, the cover, the findings and what the client declined are in it; names in any
// script, emoji and hostile strings never make pdf-lib's standard fonts throw.

const finding = (n: number, severity: Finding["severity"] = "gap"): Finding => ({
  key: `auto-bodily-injury:AU-${n}`,
  rule: "auto-bodily-injury",
  line: "AUTO",
  severity,
  title: `Bodily injury liability below $100,000/$300,000 (${n})`,
  detail:
    "Acme Mutual auto AU-1 pays at most $25,000 per person and $50,000 per accident for injuries the household causes on the 2021 Honda CR-V. The agency's floor is $100,000/$300,000.",
  nextStep: "Quote bodily injury of at least $100,000/$300,000 and show the client the price of the difference.",
});

const base: ClientSummary = {
  agencyName: "Harbor Point Insurance Agency",
  householdName: "Dana Reyes",
  day: "2026-03-02",
  policies: [
    {
      label: "Acme Mutual auto AU-1",
      status: "active",
      expiry: "2027-01-01T00:00:00Z",
      annualCents: 142_000,
      inForce: true,
    },
    { label: "Acme Mutual homeowners HO-2", status: "cancelled", expiry: null, annualCents: null, inForce: false },
  ],
  totalAnnualCents: 142_000,
  unpriced: 0,
  findings: [finding(1), finding(2, "warning")],
  unknowns: ["Replacement cost unknown"],
  declined: [
    { title: "No water backup cover", note: "Client has a finished basement but declined.", day: "2026-03-01" },
  ],
};

async function pages(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

describe("the client summary PDF", () => {
  it("is one page naming the agency, the household, the cover, the findings and what was declined", async () => {
    const bytes = await buildClientSummaryPdf(base);
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(await pages(bytes)).toBe(1);
    const text = pdfText(bytes);
    for (const expected of [
      "Harbor Point Insurance Agency",
      "Insurance review for Dana Reyes",
      "Prepared on Mar 2, 2026",
      "Acme Mutual auto AU-1 (active, term ends Jan 1, 2027)",
      "$1,420.00 a year",
      "not in force",
      "In all, about $1,420.00 a year.",
      "Gap: Bodily injury liability below $100,000/$300,000 (1)",
      "To discuss: Bodily injury liability below $100,000/$300,000 (2)",
      "Our suggestion: Quote bodily injury",
      "We could not confirm from your carriers' data: Replacement cost unknown.",
      "What you chose not to change",
      'No water backup cover (declined on Mar 1, 2026): "Client has a finished basement but declined."',
    ])
      expect(text).toContain(expected);
    expect((await PDFDocument.load(bytes)).getTitle()).toBe("Insurance review for Dana Reyes");
  });

  it("says so when there is nothing to report", async () => {
    const text = pdfText(
      await buildClientSummaryPdf({
        ...base,
        findings: [],
        unknowns: [],
        declined: [],
        policies: [],
        totalAnnualCents: null,
      }),
    );
    expect(text).toContain("We found no gaps in what your carriers shared with us.");
    expect(text).toContain("Your carrier shared no policies with us.");
    expect(text).not.toContain("What you chose not to change");
  });

  it("stays on one page however much there is, and counts what did not fit", async () => {
    const many = Array.from({ length: 40 }, (_, i) => finding(i + 1));
    const bytes = await buildClientSummaryPdf({
      ...base,
      findings: many,
      policies: Array.from({ length: 12 }, () => base.policies[0] as ClientSummary["policies"][number]),
      declined: Array.from({ length: 10 }, () => base.declined[0] as ClientSummary["declined"][number]),
    });
    expect(await pages(bytes)).toBe(1);
    const text = pdfText(bytes);
    expect(text).toMatch(/And \d+ more points: ask us for the full review\./);
    expect(text).toContain("and 4 more policies.");
  });

  it("draws names in any script, emoji and hostile text without throwing, replacing what WinAnsi lacks", async () => {
    const hostile = {
      ...base,
      agencyName: "Агентство «Гавань» 保险 🏠",
      householdName: `<script>alert('x')</script> O'Neil "Robert'); DROP TABLE pulls;--" Zoë Łukasz Đorđe \u200b\u202e`,
      findings: [
        { ...finding(1), title: "Ünïcödé ✓ title 日本語", detail: `${"x".repeat(300)} ${"word ".repeat(40)}` },
        { ...finding(2), detail: `${"x".repeat(50_000)} ${"word ".repeat(4_000)}` },
      ],
      declined: [{ title: "🚗 declined", note: "نعم\u0000\u0007 line\nbreak", day: "2026-03-01" }],
    };
    const bytes = await buildClientSummaryPdf(hostile);
    expect(await pages(bytes)).toBe(1);
    const text = pdfText(bytes);
    expect(text).toContain("<script>alert('x')</script> O'Neil");
    expect(text).toContain("Zoë Lukasz Dorde");
    expect(text).toContain("Ünïcödé ? title ???");
    expect(text).toContain("Агентство".replace(/./g, "?"));
    expect(text).toContain("And 1 more point"); // the second finding's megabyte of text does not fit, and is not drawn
  });
});

describe("WinAnsi text", () => {
  it("keeps what the encoding has, strips accents it lacks, and replaces the rest", () => {
    expect(winAnsi("Café – “quoted” €5 …")).toBe("Café – “quoted” €5 …");
    expect(winAnsi("Łódź Őrség")).toBe("Lódz Orség");
    expect(winAnsi("東京 🚗 ok")).toBe("?? ? ok");
    expect(winAnsi("tab\there\nnew\u0000nul")).toBe("tab here new?nul");
  });
});
