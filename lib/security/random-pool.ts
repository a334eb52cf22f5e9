import "server-only";
import { randomFillSync } from "node:crypto";

// Random bytes for sealing (key-ring.ts), drawn from the system's generator 8 kB at a time:
// each value sealed takes a data key and two IVs, and one randomBytes call per draw cost more
// than the encryption itself (a million-pull seed seals several values per pull; ingestion too).
// The bytes are the generator's own, each handed out once and wiped from the pool as it is
// taken, so no two callers ever see the same bytes; what stays in memory is at most the pool's
// unused rest, as with node's own pooled randomUUID.

const POOL_SIZE = 8_192;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `size` fresh random bytes, in a buffer of their own. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_SIZE / 4) return randomFillSync(Buffer.alloc(size));
  if (offset + size > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}
