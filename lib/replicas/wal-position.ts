import { z } from "zod";

// A position in PostgreSQL's write-ahead log (pg_lsn), as `pg_current_wal_lsn()` prints it:
// two hexadecimal halves of a 64-bit byte offset, "16/B374D848". The primary's position after a
// user's write, and a replica's replay position, are compared here, in the process: the
// replica's is cached (replica-set.ts), so the comparison costs no round trip. It is the same
// comparison as `pg_wal_lsn_diff(replay, written) >= 0`.

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** A WAL position as PostgreSQL prints it; anything else is refused (a cookie is user input). */
export const walPositionSchema = z.string().max(17).regex(LSN, "must be a WAL position such as 16/B374D848");

/** The byte offset of a printed WAL position, or null when it is not one. */
export function walOffset(position: string): bigint | null {
  const match = LSN.exec(position);
  if (!match?.[1] || !match[2]) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Whether `reached` is at or past `wanted`: a replica that replayed it shows that write. */
export function hasReached(reached: bigint | null, wanted: bigint | null): boolean {
  if (wanted === null) return true; // nothing to wait for
  return reached !== null && reached >= wanted;
}
