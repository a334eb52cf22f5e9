// A seeded pseudo-random source. Every generated value comes from here, so the same seed
// (and the same anchor date) always yields byte-identical pulls and stable ids.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO date-time `days` days after `now` (negative: before). */
export function isoDaysFrom(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** mulberry32: tiny, fast and good enough for fixtures. Returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  digits(length: number): string;
  /** A UUID-v4-shaped id (version nibble 4, RFC 4122 variant) drawn from this stream. */
  uuid(): string;
};

export function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      const index = Math.floor(next() * items.length);
      if (index >= items.length) throw new Error("pick() from an empty list");
      return items[index] as T;
    },
    digits: (length) => Array.from({ length }, () => String(int(0, 9))).join(""),
    uuid() {
      const bytes = Array.from({ length: 16 }, () => int(0, 255));
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}
