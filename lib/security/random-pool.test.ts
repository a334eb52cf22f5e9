import { describe, expect, it } from "vitest";
import { openValue, sealValue, type KeyRing } from "./key-ring";
import { pooledRandomBytes } from "./random-pool";

// Sealing draws its data keys and IVs from a pool: no draw may repeat another or come back as
// zeros the wipe left, across the pool's refills, and values must still seal and open.

const ring: KeyRing = { keys: [{ id: "k1", key: Buffer.alloc(32, 7) }], retired: new Set() };

describe("pooled random bytes", () => {
  it("never hand out the same bytes twice, across several refills of the pool", () => {
    const seen = new Set<string>();
    const zeros = Buffer.alloc(32).toString("hex");
    for (let i = 0; i < 3_000; i++) {
      const bytes = pooledRandomBytes(i % 2 === 0 ? 32 : 12);
      const hex = bytes.toString("hex");
      expect(bytes.length).toBe(i % 2 === 0 ? 32 : 12);
      expect(hex).not.toBe(zeros.slice(0, hex.length));
      seen.add(hex);
    }
    expect(seen.size).toBe(3_000);
  });

  it("gives each caller a buffer of its own: a later draw leaves an earlier one as it was", () => {
    const first = pooledRandomBytes(32);
    const copy = Buffer.from(first);
    for (let i = 0; i < 1_000; i++) pooledRandomBytes(32);
    expect(first.equals(copy)).toBe(true);
  });

  it("serves a size larger than the pool's share straight from the generator", () => {
    const big = pooledRandomBytes(5_000);
    expect(big.length).toBe(5_000);
    expect(big.equals(Buffer.alloc(5_000))).toBe(false);
  });

  it("seals the same value differently each time, and each opens to it", () => {
    const sealed = Array.from({ length: 500 }, () => sealValue("1987-05-03", ring));
    expect(new Set(sealed).size).toBe(500);
    for (const value of sealed.slice(0, 20)) expect(openValue(value, ring)).toBe("1987-05-03");
  });
});
