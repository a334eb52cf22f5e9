import { describe, expect, it } from "vitest";
import { createRandom, createWideRandom } from "@/sandbox/data/random";
import { seedPayloadChunk } from "./seed";

// A million-pull seed stopped at 800,000 on a duplicate pull id: its chunks drew from one
// 32-bit generator, whose streams overlap at that size. Each chunk now has a 128-bit stream.

describe("the benchmark book's ids", () => {
  it("never repeat across chunks", () => {
    const now = new Date("2026-11-25T00:00:00Z");
    const ids = new Set<string>();
    let count = 0;
    for (let chunk = 0; chunk < 40; chunk++)
      for (const pull of seedPayloadChunk(1, 40 * 50, now, 50, chunk)) {
        ids.add(pull.pull_id);
        count++;
      }
    expect(count).toBe(2_000);
    expect(ids.size).toBe(count);
  });

  it("come from streams that do not overlap, where mulberry32's neighbouring seeds do", () => {
    const words = (next: () => number, n: number) => Array.from({ length: n }, () => next());
    // mulberry32 advances its state by a constant: seed + 0x6d2b79f5 is the seed's stream one draw on.
    const a = words(createRandom(7).next, 5);
    const b = words(createRandom(7 + 0x6d2b79f5).next, 4);
    expect(b).toEqual(a.slice(1));
    const wide = new Set<number>();
    for (let stream = 0; stream < 200; stream++)
      for (const w of words(createWideRandom(7, stream).next, 500)) wide.add(w);
    // 100,000 draws of 32 bits: about one coincidence is expected by chance, a shared stream would give hundreds.
    expect(wide.size).toBeGreaterThan(100_000 - 10);
  });

  it("are the same for the same seed and chunk", () => {
    const now = new Date("2026-11-25T00:00:00Z");
    const first = seedPayloadChunk(3, 100, now, 50, 1).map((p) => p.pull_id);
    expect(seedPayloadChunk(3, 100, now, 50, 1).map((p) => p.pull_id)).toEqual(first);
    expect(seedPayloadChunk(3, 100, now, 50, 0).map((p) => p.pull_id)).not.toEqual(first);
  });
});
