import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMutation, mutationPlan, type Json } from "@/lib/service/schemas/fuzz-support";
import { parsePull, parsePullResponse, type Pull } from "@/lib/service/schemas";
import { generatePulls } from "@/sandbox/data/pulls";
import { reviewHousehold, type Finding, type ReviewSettings } from "./coverage";
import { DEFAULT_REVIEW_RULES } from "./review-rules";

// The review over real-looking data: the service's published example pulls, the sandbox's
// generated book (hostile account included) and both mutated the ways real payloads differ from
// the spec. Whatever comes in, the review does not throw and writes no "NaN", "undefined" or
// "Invalid Date"; and the personal example's own figures give exactly the gaps worked out below.

const SETTINGS: ReviewSettings = { ...DEFAULT_REVIEW_RULES, leadTimeDays: 45 };
const FIXTURES = join(process.cwd(), "lib/service/fixtures/real/pulls");
const body = (name: string): { pull: Json } => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8"));
function example(name: string): Pull {
  const parsed = parsePullResponse(body(name));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.pull;
}

const BAD_TEXT = /NaN|undefined|Invalid Date|\bnull\b|Infinity|\[object Object\]/;
function expectReadable(findings: Finding[]) {
  for (const f of findings) {
    for (const text of [f.key, f.title, f.detail, f.nextStep]) {
      expect(typeof text).toBe("string");
      expect(text, JSON.stringify(f)).not.toMatch(BAD_TEXT);
      expect(text.trim()).not.toBe("");
    }
    expect(["gap", "warning", "unknown"]).toContain(f.severity);
  }
  expect(new Set(findings.map((f) => f.key)).size).toBe(findings.length);
}

const DAYS = ["2023-05-20", "2024-06-20", "2026-03-01", "2031-12-31"];

describe("the published example pulls", () => {
  it.each(["personal", "commercial"])("%s: reviews on any day without a throw or an unreadable word", (name) => {
    for (const day of DAYS) expectReadable(reviewHousehold(example(name), SETTINGS, day));
  });

  it("personal: the gaps its own figures show, and no others", () => {
    // Auto AU192837 (Chevrolet Camaro, lien holder Metropolis Bank): BI 100/300 (at the floor),
    // PD $50,000 (under $100,000), UM $15,000/$30,000 (under its BI), comprehensive and collision
    // at $500 (financed, covered, under the ceiling), Clark on the vehicle.
    // Home HO132483: Coverage A $288,380 with 50% extended replacement cost = $432,570 against a
    // replacement cost of $500,000 ($67,430 short; 57.7% of it, under 80%); replacement cost
    // settlement; personal liability $100,000 (under $300,000); water backup by endorsement.
    // On 2023-05-20 the auto policy expires on Jun 13, 2023: in 24 days, within 45.
    const findings = reviewHousehold(example("personal"), SETTINGS, "2023-05-20");
    expect(findings.map((f) => [f.severity, f.key])).toEqual([
      ["gap", "auto-property-damage:AU192837"],
      ["gap", "auto-uninsured-motorist:AU192837"],
      ["gap", "home-dwelling-limit:HO132483:dddac0de-99c0-461f-a729-2d4362d343f4"],
      ["gap", "home-liability:HO132483:dddac0de-99c0-461f-a729-2d4362d343f4"],
      ["warning", "policy-expiring:AU192837:2023-06-13"],
    ]);
    const detail = (rule: string) => findings.find((f) => f.rule === rule)?.detail ?? "";
    expect(detail("auto-property-damage")).toContain("at most $50,000");
    expect(detail("auto-uninsured-motorist")).toContain("$15,000/$30,000");
    expect(detail("auto-uninsured-motorist")).toContain("bodily injury of $100,000/$300,000");
    expect(detail("home-dwelling-limit")).toContain(
      "for $288,380 (up to $432,570 with 50% extended replacement cost) against a replacement cost of $500,000: $67,430 short",
    );
    expect(detail("home-dwelling-limit")).toContain("57% of the replacement cost, below the 80%");
    expect(detail("home-liability")).toContain("at most $100,000");
    expect(findings.find((f) => f.rule === "policy-expiring")?.title).toBe("Expires in 24 days");
  });

  it("personal: read years later, its terms ended while listed active, which it says rather than calling them lapsed", () => {
    const findings = reviewHousehold(example("personal"), SETTINGS, "2026-03-01");
    expect(findings.filter((f) => f.rule === "policy-expiring").map((f) => [f.severity, f.title])).toEqual([
      ["unknown", "Term ended, yet listed in force"],
      ["unknown", "Term ended, yet listed in force"],
    ]);
    expect(findings.filter((f) => f.rule === "policy-lapse")).toEqual([]);
  });

  it("commercial: no personal-lines gap; the commercial auto's expiry within the lead time", () => {
    const findings = reviewHousehold(example("commercial"), SETTINGS, "2024-06-20");
    expect(findings.map((f) => [f.severity, f.line, f.title])).toEqual([
      ["warning", "COMMERCIAL_AUTO", "Expires in 19 days"],
    ]);
  });
});

describe("the sandbox's generated book", () => {
  const now = new Date("2026-06-15T12:00:00Z");
  const book = [1, 7, 20260301].flatMap((seed) => generatePulls(seed, 40, now));

  it("reviews every pull, the hostile account included, without a throw or an unreadable word", () => {
    let hostile = 0;
    let findings = 0;
    for (const raw of book) {
      const parsed = parsePull(JSON.parse(JSON.stringify(raw)));
      if (!parsed.ok) continue;
      if (parsed.pull.first_name?.includes("<script>")) hostile++;
      const found = reviewHousehold(parsed.pull, SETTINGS, "2026-06-15");
      expectReadable(found);
      findings += found.length;
    }
    expect(hostile).toBeGreaterThan(0);
    expect(findings).toBeGreaterThan(book.length); // the sandbox's cover is realistic: gaps are common
  });

  it("keeps reading when payloads are mutated the ways real ones differ from the spec", () => {
    const bases: Json[] = [
      body("personal").pull,
      body("commercial").pull,
      ...book.slice(0, 12).map((p) => JSON.parse(JSON.stringify(p)) as Json),
    ];
    fc.assert(
      fc.property(fc.nat(), fc.array(mutationPlan, { minLength: 1, maxLength: 6 }), (pick, plans) => {
        const root = JSON.parse(JSON.stringify(bases[pick % bases.length])) as Json;
        for (const plan of plans) applyMutation(root, plan);
        const parsed = parsePull(root);
        if (!parsed.ok) return;
        expectReadable(reviewHousehold(parsed.pull, SETTINGS, "2026-03-01"));
      }),
      { numRuns: 300, seed: 20260301 },
    );
  });
});
