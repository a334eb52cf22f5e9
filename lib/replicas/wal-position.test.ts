import { describe, expect, it } from "vitest";
import { hasReached, walOffset, walPositionSchema } from "./wal-position";

describe("WAL positions", () => {
  it("reads PostgreSQL's printed position as one 64-bit offset, the high half counting 4 GiB each", () => {
    expect(walOffset("0/0")).toBe(0n);
    expect(walOffset("0/3000060")).toBe(0x3000060n);
    expect(walOffset("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    expect((walOffset("1/0") ?? 0n) > (walOffset("0/FFFFFFFF") ?? 0n)).toBe(true);
  });

  it("refuses anything that is not a position, as a cookie may hold anything", () => {
    for (const bad of ["", "0", "0/", "/1", "0/1/2", "G/1", "123456789/0", " 0/1", "0/1;drop", "-1/0"]) {
      expect(walOffset(bad), bad).toBeNull();
      expect(walPositionSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(walPositionSchema.safeParse(undefined).success).toBe(false);
    expect(walPositionSchema.safeParse("a/b").success).toBe(true);
  });

  it("lets a replica serve a write once it has replayed that far, not a byte before", () => {
    const written = walOffset("0/3000060");
    expect(hasReached(walOffset("0/3000060"), written)).toBe(true);
    expect(hasReached(walOffset("1/0"), written)).toBe(true);
    expect(hasReached(walOffset("0/300005F"), written)).toBe(false);
    // A replica whose position is unknown serves nobody who wrote; nothing written: anyone.
    expect(hasReached(null, written)).toBe(false);
    expect(hasReached(walOffset("0/0"), null)).toBe(true);
  });
});
