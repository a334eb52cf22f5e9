// A seeded pseudo-random source. Every generated value comes from here, so the same seed
// (and the same anchor date) always yields byte-identical pulls and stable ids.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO date-time `days` days after `now` (negative: before). */
export function isoDaysFrom(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** mulberry32: tiny, fast and good enough for fixtures. Returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  // The state is kept as a signed 32-bit integer (`| 0`): the same bits as the usual `>>> 0`
  // form, but a value V8 stores unboxed, so a draw allocates nothing.
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Concatenation into one flat string. Template literals and `+` leave longer results as trees
 * of pieces; across a book of thousands of pulls those trees cost more memory (and collection
 * time) than the text itself.
 */
export const flat = (...parts: string[]): string => parts.join("");

/** Two hex digits per byte, looked up: Number#toString(16) is slow enough to dominate a big book. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const byte = (n: number, shift: number) => HEX[(n >>> shift) & 0xff] ?? "00";

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

/**
 * sfc32 (Chris Doty-Humphrey's small fast counting generator): 128 bits of state. A benchmark
 * book of a million pulls draws about two billion numbers: in mulberry32's single cycle of 2^32,
 * chunks seeded apart still overlap (whole pulls, ids included, came out twice). Here each
 * (seed, stream) starts its own sequence, and the counter guarantees a period of at least 2^32
 * from any start.
 */
function sfc32(seed: number, stream: number): () => number {
  let a = seed | 0;
  let b = stream | 0;
  let c = 0x9e3779b9 | 0;
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next(); // mix the seed in before the first draw
  return next;
}

/** mulberry32's stream for `seed`: the sandbox's own data, small books. */
export function createRandom(seed: number): Random {
  return randomFrom(mulberry32(seed));
}

/** Stream number `stream` of a book too big for one 32-bit cycle (the benchmark's million pulls). */
export function createWideRandom(seed: number, stream: number): Random {
  return randomFrom(sfc32(seed, stream));
}

function randomFrom(next: () => number): Random {
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  // next() is a 32-bit integer over 2^32, so this recovers all 32 bits of one draw.
  const word = () => (next() * 4294967296) >>> 0;
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      const index = Math.floor(next() * items.length);
      if (index >= items.length) throw new Error("pick() from an empty list");
      return items[index] as T;
    },
    digits(length) {
      let out = "";
      for (let i = 0; i < length; i++) out += String(Math.floor(next() * 10));
      return out;
    },
    uuid() {
      // Four words, with the version nibble set to 4 and the variant bits to 10 (RFC 4122).
      const a = word();
      const b = (word() & 0xffff0fff) | 0x00004000;
      const c = (word() & 0x3fffffff) | 0x80000000;
      const d = word();
      // join() yields one flat string; a template literal would leave a tree of string pieces.
      return [
        byte(a, 24) + byte(a, 16) + byte(a, 8) + byte(a, 0),
        byte(b, 24) + byte(b, 16),
        byte(b, 8) + byte(b, 0),
        byte(c, 24) + byte(c, 16),
        byte(c, 8) + byte(c, 0) + byte(d, 24) + byte(d, 16) + byte(d, 8) + byte(d, 0),
      ].join("-");
    },
  };
}
