import "server-only";
import { customType } from "drizzle-orm/pg-core";

// A jsonb column whose personal values are sealed on the way in and opened on the way out, so no
// writer can forget to seal them. db/ holds no keys and knows no field names: the codec (which
// values, which key ring) is installed by lib/ (lib/security/sealed-json-codec.ts) before the
// database is used. Without one, a read or a write of such a column fails rather than store clear
// values.

export type JsonSealer = {
  /** The document as stored: its personal values sealed. */
  seal: (value: unknown) => unknown;
  /** The document as the app reads it: its sealed values opened. */
  open: (value: unknown) => unknown;
};

const SEALER = Symbol.for("coverdesk.sealed-json.sealer");
type WithSealer = typeof globalThis & { [SEALER]?: JsonSealer };

/** Installs the codec of every sealed column (once a process; a later call replaces it). */
export function installJsonSealer(sealer: JsonSealer): void {
  (globalThis as WithSealer)[SEALER] = sealer;
}

function sealer(): JsonSealer {
  const installed = (globalThis as WithSealer)[SEALER];
  if (!installed)
    throw new Error("A sealed column was used before the key ring was installed (lib/security/sealed-json-codec.ts).");
  return installed;
}

/** jsonb, with personal values sealed at rest (the SQL type is plain jsonb: no migration). */
export const sealedJsonb = customType<{ data: unknown; driverData: string | unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(sealer().seal(value)),
  fromDriver: (value) => {
    let parsed: unknown = value;
    if (typeof value === "string") {
      try {
        parsed = JSON.parse(value);
      } catch {
        return value;
      }
    }
    return sealer().open(parsed);
  },
});
