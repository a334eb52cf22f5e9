import "server-only";
import { installJsonSealer } from "@/db/sealed-json";
import { openSensitive, sealSensitive } from "./sensitive-fields";

// The codec of db/'s sealed jsonb columns: drivers' licence numbers and dates of birth sealed
// under this process's key ring (sensitive-fields.ts). Installed wherever a database is opened
// (lib/database.ts, the scripts, the tests' databases).

export function installSealedJsonCodec(): void {
  installJsonSealer({ seal: (value) => sealSensitive(value), open: (value) => openSensitive(value) });
}
