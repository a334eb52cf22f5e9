import fc from "fast-check";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { isIsoDate } from "./dates";
import { PULL_STATUSES } from "./enums-pull";
import { parseTolerant } from "./problems";
import {
  bool,
  cents,
  decimalString,
  integer,
  integerString,
  isoDate,
  isPlainObject,
  jsonObject,
  lenient,
  looseResource,
  metaData,
  num,
  openEnum,
  text,
} from "./tolerant";

// The scalar fields skip their schema for values it would return unchanged (tolerant.ts,
// `lenient`'s `accepts`). Read through a resource, as every field is, each must give exactly
// what the schema alone gives: the same value and the same problems at the same paths.

/** Each field as written before the shortcuts: its schema always runs. */
const references: Array<[string, z.ZodType, z.ZodType]> = [
  ["text", text, lenient(z.string(), "a string")],
  ["bool", bool, lenient(z.boolean(), "a boolean")],
  ["integer", integer, lenient(z.union([z.number().int(), integerString]), "an integer")],
  ["cents", cents, lenient(z.union([z.number().int(), integerString]), "an integer amount of cents")],
  ["num", num, lenient(z.union([z.number(), decimalString]), "a number")],
  ["isoDate", isoDate, lenient(z.string().refine(isIsoDate), "an ISO 8601 date")],
  ["jsonObject", jsonObject, lenient(z.custom<Record<string, unknown>>(isPlainObject), "an object")],
  [
    "metaData",
    metaData,
    lenient(
      z.custom((value) => typeof value === "string" || isPlainObject(value)),
      "a string or an object",
    ),
  ],
];

const values = fc.oneof(
  fc.anything(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, -0, 1.5, NaN, Infinity, -Infinity, "12", "1.5", "-3", ""),
  fc.constantFrom("2026-11-01", "2026-11-01T10:00:00Z", "2026-13-01", "yesterday"),
  fc.constantFrom(...PULL_STATUSES, "NOT_A_STATUS"),
  fc.integer(),
  fc.double(),
);

describe("field shortcuts", () => {
  it("read every value as the field's schema does, with the same problems", () => {
    for (const [name, field, reference] of references) {
      const fast = looseResource({ f: field });
      const slow = looseResource({ f: reference });
      fc.assert(
        fc.property(values, (value) => {
          expect(parseTolerant(fast, { f: value }), name).toEqual(parseTolerant(slow, { f: value }));
          expect(parseTolerant(fast, {}), name).toEqual(parseTolerant(slow, {}));
        }),
        { numRuns: 300 },
      );
    }
  });

  it("keep an enum's documented values and the others alike, reporting only a non-string", () => {
    const status = looseResource({ s: openEnum(PULL_STATUSES, "pull status") });
    for (const value of PULL_STATUSES)
      expect(parseTolerant(status, { s: value })).toEqual({ ok: true, value: { s: value }, problems: [] });
    expect(parseTolerant(status, { s: "NEW_ONE" })).toMatchObject({
      ok: true,
      value: { s: "NEW_ONE" },
      problems: [],
    });
    expect(parseTolerant(status, { s: 3 })).toMatchObject({
      ok: true,
      value: { s: null },
      problems: [{ path: "s", kind: "wrong_type" }],
    });
  });
});
