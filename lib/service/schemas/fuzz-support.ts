import fc from "fast-check";

// Used by the fuzz tests only (nothing in the app imports it): JSON paths in the format the
// problem collector writes, and mutations of a realistic pull of the kinds real payloads show
// (service-notes: absent fields, extra fields, casing duplicates, undocumented enum values,
// values of another type), applied at random depth.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Segment = string | number;
export type Path = readonly Segment[];

export function isJsonObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `policies[0].vehicles[1].year`, as `PayloadProblem.path` writes it; the root is "(root)". */
export function formatPath(path: Path): string {
  const text = path.reduce<string>(
    (out, part) => (typeof part === "number" ? `${out}[${part}]` : out === "" ? part : `${out}.${part}`),
    "",
  );
  return text === "" ? "(root)" : text;
}

/** The inverse of formatPath, for the keys our payloads use (no dots or brackets in keys). */
export function parsePath(text: string): Segment[] {
  if (text === "(root)") return [];
  return (text.match(/\[\d+\]|[^.[\]]+/g) ?? []).map((part) =>
    part.startsWith("[") ? Number(part.slice(1, -1)) : part,
  );
}

export function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length <= path.length && prefix.every((part, index) => part === path[index]);
}

/** The value at `path`, or undefined when the path does not exist. */
export function valueAt(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const part of path) {
    if (typeof part === "number" && Array.isArray(node)) node = node[part];
    else if (typeof part === "string" && isJsonObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/** Every object member and list item below the root, depth first. */
export function locations(root: Json, path: Segment[] = []): Array<{ path: Segment[]; value: Json }> {
  const entries: Array<[Segment, Json]> = Array.isArray(root)
    ? root.map((value, index) => [index, value])
    : isJsonObject(root)
      ? Object.entries(root)
      : [];
  return entries.flatMap(([part, value]) => [{ path: [...path, part], value }, ...locations(value, [...path, part])]);
}

/** The fields that carry an enum in a pull (spec 2.x), with list indices written as `*`. */
const ENUM_FIELDS = new Set([
  "status",
  "type",
  "policy_check_status",
  "skipped_product_types.*",
  "funnel.stage",
  "policies.*.policy_type",
  "policies.*.status",
  "policies.*.form_of_business",
  "policies.*.payment_frequency",
  "policies.*.vehicles.*.ownership_type",
  "policies.*.vehicles.*.uses.*",
  "policies.*.vehicles.*.coverages.*.friendly_name",
  "policies.*.vehicles.*.coverages.*.pip_deductible_applicability",
  "policies.*.vehicles.*.drivers.*.gender",
  "policies.*.vehicles.*.drivers.*.marital_status",
  "policies.*.vehicles.*.drivers.*.relationship_to_insured",
  "policies.*.dwellings.*.loss_settlement_type",
  "policies.*.dwellings.*.coverages.*.name",
  "policies.*.dwellings.*.coverages.*.friendly_name",
  "policies.*.dwellings.*.property_data.class",
  "policies.*.dwellings.*.property_data.roof_cover",
  "policies.*.dwellings.*.property_data.construction_type",
  "drivers.*.gender",
  "drivers.*.marital_status",
  "drivers.*.education",
  "drivers.*.relationship_to_insured",
  "documents.*.document_type",
  "documents.*.mime_type",
  "addresses.*.address_nature",
  "claims.*.type",
  "claims.*.status",
  "driving_records.*.incident_type",
  "driving_records.*.violation_type",
  "loss_events.*.type",
  "answers.*.fields.*.type",
]);

export function isEnumField(path: Path): boolean {
  return ENUM_FIELDS.has(path.map((part) => (typeof part === "number" ? "*" : part)).join("."));
}

export type Mutation = { kind: "delete" | "add" | "enum" | "retype"; path: Segment[]; value: Json | undefined };

const jsonKey = fc.stringMatching(/^[a-z][a-z_]{0,8}$/);
const jsonLeaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom("2026-03-01", "2026-03-01T23:30:00-05:00", "12.34", "175349", "ACTIVE", ""),
);
const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    jsonLeaf,
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(jsonKey, tie("json"), { maxKeys: 3 }),
  ),
}));

/** The random choices of one mutation; where it lands is decided against the current payload. */
export const mutationPlan = fc.record({
  kind: fc.constantFrom("delete", "add", "enum", "retype"),
  pick: fc.nat(),
  keyPick: fc.nat(),
  copyValue: fc.boolean(),
  enumValue: fc.stringMatching(/^[A-Z][A-Z_]{1,10}$/).map((text) => `ZZ_${text}`),
  replacement: fc.record({
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    string: fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom("12.34", "2019", "yesterday", "NONE", "")),
    array: fc.array(json, { maxLength: 3 }),
    object: fc.dictionary(jsonKey, json, { maxKeys: 3 }),
    boolean: fc.boolean(),
  }),
  extra: json,
});
export type MutationPlan = typeof mutationPlan extends fc.Arbitrary<infer T> ? T : never;

type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";
const typeOf = (value: Json): JsonType =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "object"
        ? "object"
        : (typeof value as "boolean" | "number" | "string");

/** A value of another JSON type than `value`, chosen by the plan. */
function otherType(value: Json, plan: MutationPlan): Json {
  const candidates: Record<JsonType, Json> = { null: null, ...plan.replacement };
  const others = (Object.keys(candidates) as JsonType[]).filter((type) => type !== typeOf(value));
  const type = others[plan.keyPick % others.length] ?? "null";
  return candidates[type];
}

/** The same key in the other casings real payloads use (`GaragingAddress` beside `garaging_address`). */
function casingVariants(key: string): string[] {
  const words = key.split("_").filter((word) => word !== "");
  const pascal = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return [pascal, camel, key.toUpperCase()].filter((variant) => variant !== key);
}

function setAt(root: Json, path: Path, value: Json): void {
  const parent = valueAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === "number") parent[last] = value;
  else if (isJsonObject(parent) && typeof last === "string") parent[last] = value;
}

/** The pull's own id is left alone: without it the pull is rightly rejected (tested apart). */
const isPullId = (path: Path) => path.length === 1 && path[0] === "pull_id";
const roundTrip = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;

/** Applies one planned mutation to `root` in place and says what it did (null: nowhere to apply). */
export function applyMutation(root: Json, plan: MutationPlan): Mutation | null {
  const all = locations(root).filter((location) => !isPullId(location.path));
  const choose = <T>(items: T[]): T | undefined => items[plan.pick % Math.max(items.length, 1)];

  if (plan.kind === "delete") {
    const target = choose(all.filter((location) => typeof location.path[location.path.length - 1] === "string"));
    const parent = target && valueAt(root, target.path.slice(0, -1));
    const key = target?.path[target.path.length - 1];
    if (!target || !isJsonObject(parent) || typeof key !== "string") return null;
    delete parent[key];
    return { kind: "delete", path: target.path, value: undefined };
  }

  if (plan.kind === "add") {
    const objects = [{ path: [] as Segment[], value: root }, ...all].filter((location) => isJsonObject(location.value));
    const target = choose(objects);
    if (!target || !isJsonObject(target.value)) return null;
    const object = target.value;
    const existing = Object.keys(object);
    const variants = existing.flatMap((key) => casingVariants(key).map((variant) => ({ key: variant, copyOf: key })));
    const choices = [
      { key: "deleted_at", copyOf: null },
      { key: `x_extra_${plan.keyPick % 7}`, copyOf: null },
      ...variants,
    ].filter((choice) => !Object.hasOwn(object, choice.key));
    const choice = choices[plan.keyPick % Math.max(choices.length, 1)];
    if (!choice) return null;
    const copied = choice.copyOf === null ? undefined : object[choice.copyOf];
    const value = roundTrip(
      plan.copyValue && copied !== undefined ? copied : choice.key === "deleted_at" ? null : plan.extra,
    );
    object[choice.key] = value;
    return { kind: "add", path: [...target.path, choice.key], value };
  }

  if (plan.kind === "enum") {
    const target = choose(all.filter((location) => typeof location.value === "string" && isEnumField(location.path)));
    if (target) {
      setAt(root, target.path, plan.enumValue);
      return { kind: "enum", path: target.path, value: plan.enumValue };
    }
  }

  const target = choose(all);
  if (!target) return null;
  const value = roundTrip(otherType(target.value, plan));
  setAt(root, target.path, value);
  return { kind: "retype", path: target.path, value };
}
