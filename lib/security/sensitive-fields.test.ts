import { describe, expect, it } from "vitest";
import type { KeyRing } from "./key-ring";
import { censusOf, openSensitive, pathIsSensitive, sealSensitive } from "./sensitive-fields";

const ring: KeyRing = { keys: [{ id: "t1", key: Buffer.alloc(32, 9) }], retired: new Set() };

describe("the sensitive fields of a stored document", () => {
  it("seals licences and birth dates at any depth, strings and numbers, and opens them as they were", () => {
    const doc = {
      pull_id: "p",
      first_name: "Clark",
      drivers: [{ driver_id: "d", drivers_license: "SUP1234017", date_of_birth_str: "05/03/1987", age: 39 }],
      policies: [{ vehicles: [{ drivers: [{ drivers_license: 12345678, date_of_birth_str: null }] }] }],
    };
    const sealed = sealSensitive(doc, ring);
    const text = JSON.stringify(sealed);
    for (const clear of ["SUP1234017", "05/03/1987", "12345678"]) expect(text).not.toContain(clear);
    expect(text).toContain('"first_name":"Clark"');
    expect(text).toContain('"age":39');
    expect(text).toContain('"date_of_birth_str":null');
    expect(openSensitive(sealed, ring)).toEqual(doc);
    expect(censusOf(sealed)).toEqual({ clear: 0, byKey: { t1: 3 } });
    expect(censusOf(doc)).toEqual({ clear: 3, byKey: {} });
    // Sealing again changes nothing; a document without them is the same object.
    expect(sealSensitive(sealed, ring)).toBe(sealed);
    const plain = { a: [{ b: "c" }] };
    expect(sealSensitive(plain, ring)).toBe(plain);
  });

  it("seals the value and the message of a problem or change whose path ends in one of them", () => {
    const problems = [
      {
        path: "drivers[0].date_of_birth_str",
        kind: "wrong_type",
        message: "expected text, got the number 19870503",
        raw: 19870503,
      },
      { path: "policies[0].vehicles[1].year", kind: "wrong_type", message: "expected a number", raw: "1999" },
    ];
    const sealed = sealSensitive(problems, ring) as typeof problems;
    expect(JSON.stringify(sealed)).not.toContain("19870503");
    expect(sealed[1]).toBe(problems[1]);
    expect(openSensitive(sealed, ring)).toEqual(problems);
    expect(pathIsSensitive("policies[0].drivers[2].drivers_license")).toBe(true);
    expect(pathIsSensitive("drivers[0].drivers_license_state")).toBe(false);
  });
});
