import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generatePulls } from "@/sandbox/data/pulls";
import { canonicalJson, contentHash } from "./projection";

// Stored rows keep the hash of canonicalJson's text, and a refetch is a no-op only when the
// hash matches: the text must stay byte for byte what the first implementation wrote.

function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const FIXTURES = join(process.cwd(), "lib/service/fixtures/real/pulls");

describe("canonicalJson", () => {
  it("writes the same text as the reference for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => canonicalJson(value) === reference(value)),
      { numRuns: 500 },
    );
  });

  it("escapes every string as JSON.stringify does: controls, quotes, lone surrogates, astral characters", () => {
    const strings = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: "binary-ascii" }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(strings, fc.array(strings, { maxLength: 4 }), { maxKeys: 8 }),
        (value) => canonicalJson(value) === reference(value),
      ),
      { numRuns: 300 },
    );
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${(i * 37) % 100}`, i]));
    expect(canonicalJson(wide)).toBe(reference(wide));
  });

  it("writes the same text for values JSON cannot hold: undefined members, holes, dates, odd keys", () => {
    const odd = [1, , undefined, () => 1, new Date(0), { b: undefined, a: [undefined], "10": 1, "2": 2, é: "\u2028" }];
    expect(canonicalJson(odd)).toBe(reference(odd));
    fc.assert(
      fc.property(fc.anything({ withSparseArray: true, withNullPrototype: true }), (value) => {
        let expected: string;
        try {
          expected = reference(value);
        } catch {
          return true; // a bigint: both throw
        }
        return canonicalJson(value) === expected;
      }),
      { numRuns: 500 },
    );
  });

  it("hashes the service's example pulls and generated ones as before", () => {
    const payloads: unknown[] = readdirSync(FIXTURES)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), "utf8")));
    payloads.push(...generatePulls(5, 50, new Date("2026-11-01T00:00:00Z")));
    expect(payloads.length).toBeGreaterThan(50);
    for (const payload of payloads) {
      expect(canonicalJson(payload)).toBe(reference(payload));
      expect(contentHash(payload)).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
