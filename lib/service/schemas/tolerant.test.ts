import { z } from "zod";
import { describe, expect, it } from "vitest";
import { collectProblems } from "./problems";
import {
  bool,
  enumList,
  integer,
  jsonObject,
  lenientArray,
  looseResource,
  metaData,
  num,
  openEnum,
  requiredId,
  requiredUuid,
  stringList,
  text,
} from "./tolerant";

// The building blocks every resource schema is made of. Each reads an odd value as null (or
// keeps it) and says so; none of them may throw or fail the parse around it.

const read = (schema: z.ZodType, value: unknown) => collectProblems(() => schema.parse(value));

describe("scalar fields", () => {
  it("read absent and null as null without a problem", () => {
    for (const schema of [text, bool, integer, num, jsonObject, metaData]) {
      expect(read(schema, undefined)).toEqual({ result: null, problems: [] });
      expect(read(schema, null)).toEqual({ result: null, problems: [] });
    }
  });

  it("read a value of the wrong type as null and report it with the raw value", () => {
    const { result, problems } = read(text, 42);
    expect(result).toBeNull();
    expect(problems).toEqual([
      { path: "(root)", kind: "wrong_type", message: "expected a string, got the number 42", raw: 42 },
    ]);
    expect(read(bool, "true").result).toBeNull();
    expect(read(bool, "true").problems[0]?.kind).toBe("wrong_type");
  });

  it("read an integer written as a string, since it loses nothing", () => {
    expect(read(integer, "2019")).toEqual({ result: 2019, problems: [] });
    expect(read(integer, 2019.5).result).toBeNull();
    expect(read(integer, "2019.5").problems[0]?.kind).toBe("wrong_type");
  });

  it("read a number from a decimal string, but not from other text", () => {
    expect(read(num, "1234.56").result).toBe(1234.56);
    expect(read(num, "12,34").result).toBeNull();
  });
});

describe("openEnum", () => {
  const stage = openEnum(["WORKING", "WON", "LOST"], "funnel stage");

  it("keeps a documented value silently", () => {
    expect(read(stage, "WON")).toEqual({ result: "WON", problems: [] });
  });

  it("keeps an undocumented value as it came, and reports no problem", () => {
    const { result, problems } = read(stage, "ON_HOLD");
    expect(result).toBe("ON_HOLD");
    expect(problems).toEqual([]);
  });

  it("reads a non-string as null and reports a wrong type, not an unknown value", () => {
    const { result, problems } = read(stage, 3);
    expect(result).toBeNull();
    expect(problems.map((p) => p.kind)).toEqual(["wrong_type"]);
  });
});

describe("lists", () => {
  const item = looseResource({ id: requiredId, name: text });
  const items = lenientArray(item, "thing");

  it("read absent and null as an empty list", () => {
    expect(read(items, undefined)).toEqual({ result: [], problems: [] });
    expect(read(items, null)).toEqual({ result: [], problems: [] });
  });

  it("read a non-list as empty and report it", () => {
    const { result, problems } = read(items, "nope");
    expect(result).toEqual([]);
    expect(problems).toMatchObject([{ path: "(root)", kind: "wrong_type", raw: "nope" }]);
  });

  it("drop only the item without its id, report it once at its index, and keep the rest in order", () => {
    const { result, problems } = read(items, [{ id: "a" }, { name: 7 }, "x", { id: "d", name: "Dee" }]);
    expect(result).toEqual([
      { id: "a", name: null },
      { id: "d", name: "Dee" },
    ]);
    // The dropped item's own odd field (name: 7) is not reported separately.
    expect(problems.map((p) => [p.path, p.kind])).toEqual([
      ["[1]", "dropped_item"],
      ["[2]", "dropped_item"],
    ]);
    expect(problems[0]?.raw).toEqual({ name: 7 });
    expect(problems[0]?.message).toContain("id: is missing");
  });

  it("keep problems inside items that are kept, at the item's path", () => {
    const { problems } = read(items, [{ id: "a", name: ["A"] }]);
    expect(problems).toMatchObject([{ path: "[0].name", kind: "wrong_type", raw: ["A"] }]);
  });

  it("enumList keeps unknown values, drops non-strings", () => {
    const { result, problems } = read(enumList(["personal", "commercial"], "product type"), ["personal", "farm", 3]);
    expect(result).toEqual(["personal", "farm"]);
    expect(problems.map((p) => [p.path, p.kind])).toEqual([["[2]", "dropped_item"]]);
  });

  it("stringList drops what is not text", () => {
    expect(read(stringList, ["a", null, "b"]).result).toEqual(["a", "b"]);
  });
});

describe("identifiers", () => {
  it("requiredId keeps a numeric id as text and says so", () => {
    const { result, problems } = read(requiredId, 17);
    expect(result).toBe("17");
    expect(problems.map((p) => p.kind)).toEqual(["wrong_type"]);
  });

  it("requiredId fails on a missing, blank or object id", () => {
    for (const value of [undefined, "", "  ", {}, 1.5]) expect(requiredId.safeParse(value).success).toBe(false);
  });

  it("requiredUuid accepts only a UUID", () => {
    expect(requiredUuid.safeParse("59CED597-B48F-49E3-9756-799E4C6F79A0").success).toBe(true);
    for (const value of [undefined, "59ced597", 59, "59ced597-b48f-49e3-9756-799e4c6f79a0 "]) {
      expect(requiredUuid.safeParse(value).success).toBe(false);
    }
  });
});

describe("looseResource", () => {
  const resource = looseResource({ known: text });

  it("keeps unknown fields exactly as received, including nested ones", () => {
    const raw = { known: "k", extra: { deep: [1, { x: null }] }, Known: "other casing", deleted_at: null };
    expect(resource.parse(raw)).toEqual({
      known: "k",
      extra: { deep: [1, { x: null }] },
      Known: "other casing",
      deleted_at: null,
    });
  });

  it("gives every known field a value, null when absent", () => {
    expect(resource.parse({})).toEqual({ known: null });
  });

  it("names the field in a problem's path", () => {
    expect(
      read(looseResource({ outer: looseResource({ inner: bool }) }), { outer: { inner: "yes" } }).problems,
    ).toMatchObject([{ path: "outer.inner", kind: "wrong_type" }]);
  });
});
