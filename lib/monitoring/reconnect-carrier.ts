import { listCarriers } from "@/lib/service/carriers-api";
import type { ServiceConfig } from "@/lib/service/client";

// The service takes a carrier only by its id (`statefarm`) as insurerName, never by the name a
// person reads. A pull names its carrier by an identifier that is usually that id, and by a
// friendly name; either is matched against the catalogue's ids and names, ignoring case.

const key = (value: string) => value.trim().toLowerCase();

/** The carrier id of GET /carriers that one of `names` denotes, or null when none does. */
export async function resolveCarrierId(service: ServiceConfig, names: readonly string[]): Promise<string | null> {
  const wanted = new Set(names.map(key).filter((n) => n !== ""));
  if (wanted.size === 0) return null;
  const carriers = await listCarriers(service);
  const byId = carriers.find((c) => wanted.has(key(c.carrier_id)));
  const found = byId ?? carriers.find((c) => c.name !== null && wanted.has(key(c.name)));
  return found?.carrier_id ?? null;
}
