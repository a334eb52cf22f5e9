import type { Random } from "../data/random";

// A later pull of the same account is a new snapshot: every entity in it has a new id. These
// helpers re-key a pull consistently, so references (policy_id on a claim, the pull id in a
// download path) keep pointing at the right thing.

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Ids that name something outside the pull; they stay. */
const SHARED_IDS = new Set(["team_id", "widget_id", "parent_pull_id"]);

function mapStrings(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return value.replace(UUIDS, (id) => map.get(id) ?? id);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

/** The value with every occurrence of the map's ids replaced. */
export function replaceIds<T>(value: T, map: ReadonlyMap<string, string>): T {
  return mapStrings(value, map) as T;
}

const WHOLE_UUID = new RegExp(`^${UUIDS.source}$`, "i");

function collectIds(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectIds(v, found);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key.endsWith("_id") && !SHARED_IDS.has(key) && typeof v === "string" && WHOLE_UUID.test(v)) found.add(v);
      else collectIds(v, found);
    }
  }
}

/** A copy of `value` with fresh ids for everything it holds (`preset` decides some); also old → new. */
export function renewIds<T>(
  random: Random,
  value: T,
  preset: ReadonlyMap<string, string> = new Map(),
): { value: T; map: Map<string, string> } {
  const found = new Set<string>();
  collectIds(value, found);
  const map = new Map(preset);
  for (const id of found) if (!map.has(id)) map.set(id, random.uuid());
  return { value: replaceIds(value, map), map };
}
