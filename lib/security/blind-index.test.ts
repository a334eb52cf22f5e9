import { describe, expect, it } from "vitest";
import { blindIndex, normaliseForIndex } from "./blind-index";

const key = Buffer.alloc(32, 3);

describe("blind index", () => {
  it("finds the same person however a payload spelled the value", () => {
    expect(blindIndex("email", " Ana.Diaz@Example.com ", key)).toBe(blindIndex("email", "ana.diaz@example.com", key));
    expect(blindIndex("phone", "+1 (555) 010-2233", key)).toBe(blindIndex("phone", "5550102233", key));
    expect(blindIndex("birth-date", "03/02/1985", key)).toBe(blindIndex("birth-date", "1985-03-02", key));
    expect(normaliseForIndex("vin", "1hgcm 8263-3a004352")).toBe("1HGCM82633A004352");
  });

  it("differs by kind and by key, and never contains the value", () => {
    const email = blindIndex("email", "ana@example.com", key);
    expect(email).not.toBe(blindIndex("name", "ana@example.com", key));
    expect(email).not.toBe(blindIndex("email", "ana@example.com", Buffer.alloc(32, 4)));
    expect(email).toMatch(/^[0-9a-f]{64}$/);
  });

  it("indexes nothing for an empty value", () => {
    expect(blindIndex("name", "   ", key)).toBeNull();
    expect(blindIndex("email", null, key)).toBeNull();
  });
});
