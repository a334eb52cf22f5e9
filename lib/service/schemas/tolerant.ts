import { z } from "zod";
import { isIsoDate } from "./dates";
import { atPath, describeIssues, describeValue, keepProblems, reportProblem, tentatively } from "./problems";

// The building blocks every resource schema is made of. Real payloads leave fields out, send
// other types and enum values nobody documented; these read a value of the wrong type as null
// and report a problem, so only a missing identifier can lose an item. An enum value nobody
// documented is kept as it came and is no problem: the real service sends such values on
// every pull (policy_check_status "NONE"), and a problem on every pull is one nobody reads.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What a field's schema reads a value as, when that is known without running it: a pull has
 * about a thousand fields, nearly all well-formed, and a parse through zod (nested safeParse,
 * held-back problems, path bookkeeping) for each was most of the cost of ingesting a pull.
 * MISS: run the schema. Only for values the schema would return unchanged, reporting nothing.
 */
const MISS: unique symbol = Symbol("run the schema");
type Shortcut = (value: unknown) => unknown;
const shortcuts = new WeakMap<z.ZodType, Shortcut>();

/**
 * Absent or null reads as null; a value `schema` rejects reads as null and is reported.
 * `accepts`, when given, must hold exactly for values that `schema` returns unchanged without
 * reporting a problem: those skip the schema (tolerant.test.ts checks each against it).
 */
export function lenient<S extends z.ZodType>(schema: S, expected?: string, accepts?: (value: unknown) => boolean) {
  const field = z.transform((value: unknown): z.output<S> | null => {
    if (value === undefined || value === null) return null;
    if (accepts?.(value)) return value as z.output<S>;
    const { result, problems } = tentatively(() => schema.safeParse(value));
    if (result.success) {
      keepProblems(problems);
      return result.data;
    }
    reportProblem(
      "wrong_type",
      `expected ${expected ?? describeIssues(result.error)}, got ${describeValue(value)}`,
      value,
    );
    return null;
  });
  if (accepts)
    shortcuts.set(field, (value) => (value === undefined || value === null ? null : accepts(value) ? value : MISS));
  return field;
}

const isString = (value: unknown) => typeof value === "string";
const isSafeInteger = (value: unknown) => Number.isSafeInteger(value); // z.number().int()

/** A whole number written as text ("42"), read as a number. */
export const integerString = z
  .string()
  .regex(/^-?\d+$/)
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n));
/** A decimal written as text ("12.50"), read as a number. */
export const decimalString = z
  .string()
  .regex(/^-?\d+(?:\.\d+)?$/)
  .transform(Number);

export const text = lenient(z.string(), "a string", isString);
export const bool = lenient(z.boolean(), "a boolean", (value) => typeof value === "boolean");
/** An integer; one written as a string ("2019") is read as the number. */
export const integer = lenient(z.union([z.number().int(), integerString]), "an integer", isSafeInteger);
/** Money in integer cents. "12345" is read as 12345; a fraction of a cent is not money we trust. */
export const cents = lenient(z.union([z.number().int(), integerString]), "an integer amount of cents", isSafeInteger);
export const num = lenient(
  z.union([z.number(), decimalString]),
  "a number",
  (value) => typeof value === "number" && Number.isFinite(value), // z.number()
);
/** An ISO 8601 date or date-time, kept exactly as written. */
export const isoDate = lenient(
  z.string().refine(isIsoDate),
  "an ISO 8601 date",
  (value) => typeof value === "string" && isIsoDate(value),
);

/** A JSON object kept as received. */
export const jsonObject = lenient(z.custom<Record<string, unknown>>(isPlainObject), "an object", isPlainObject);

const isMetaData = (value: unknown) => typeof value === "string" || isPlainObject(value);
/** `meta_data`: developer data that arrives as a JSON string, an object, or null. */
export const metaData = lenient(
  z.custom<string | Record<string, unknown>>(isMetaData),
  "a string or an object",
  isMetaData,
);

/** Tells a documented enum value from one the service added since (which is still shown). */
export function isKnownValue<const V extends readonly string[]>(values: V, value: unknown): value is V[number] {
  return typeof value === "string" && values.includes(value);
}

/** A documented value, or one the service added since: either is kept as it came. */
function enumValue<const V extends readonly string[]>() {
  return z.string().transform((value): V[number] | (string & {}) => value);
}

/** An enum that keeps a value outside the documented list instead of failing; only a non-string is a problem. */
export function openEnum<const V extends readonly string[]>(_values: V, label = "value") {
  return lenient(enumValue<V>(), `a ${label}`, isString);
}

/**
 * A list whose items are read one by one: an item the schema rejects (not an object, or
 * without its id) is dropped and reported with its raw value; absent reads as [].
 */
export function lenientArray<S extends z.ZodType>(item: S, label = "item", expected = "an object") {
  return z.transform((value: unknown): z.output<S>[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      reportProblem("wrong_type", `expected a list of ${label}s, got ${describeValue(value)}`, value);
      return [];
    }
    const items: z.output<S>[] = [];
    value.forEach((entry: unknown, index) =>
      atPath(`[${index}]`, () => {
        const { result, problems } = tentatively(() => item.safeParse(entry));
        if (result.success) {
          keepProblems(problems);
          items.push(result.data);
        } else {
          const reason = isPlainObject(entry)
            ? describeIssues(result.error)
            : `expected ${expected}, got ${describeValue(entry)}`;
          reportProblem("dropped_item", `${label} dropped: ${reason}`, entry);
        }
      }),
    );
    return items;
  });
}

/** A list of enum values; unknown ones are kept, non-strings dropped and reported. */
export function enumList<const V extends readonly string[]>(_values: V, label = "value") {
  return lenientArray(enumValue<V>(), label, "a string");
}

/** A list of strings (ids, features); non-strings are dropped and reported. */
export const stringList = lenientArray(z.string(), "string", "a string");

/** A list the response is about (`pulls`, `monitorings`): without it the answer is not one. */
export function requiredArray<S extends z.ZodType>(item: S, label: string) {
  const items = lenientArray(item, label);
  return z.transform((value: unknown, ctx): z.output<S>[] => {
    if (Array.isArray(value)) return items.parse(value);
    ctx.addIssue({ code: "custom", message: `expected a list, got ${describeValue(value)}` });
    return z.NEVER;
  });
}

/** Text an answer cannot do without, such as an error code. */
export const requiredText = z.transform((value: unknown, ctx): string => {
  if (typeof value === "string" && value.trim() !== "") return value;
  ctx.addIssue({
    code: "custom",
    message: value === undefined ? "is missing" : `expected text, got ${describeValue(value)}`,
  });
  return z.NEVER;
});

/** The identifier an item cannot do without: missing, it drops the item. */
export const requiredId = z.transform((value: unknown, ctx): string => {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    reportProblem("wrong_type", "expected a string id, got a number; kept as text", value);
    return String(value);
  }
  ctx.addIssue({
    code: "custom",
    message: value === undefined ? "is missing" : `is not an id (${describeValue(value)})`,
  });
  return z.NEVER;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID the whole resource hangs on (a pull's `pull_id`): anything else fails the parse. */
export const requiredUuid = z.transform((value: unknown, ctx): string => {
  if (typeof value === "string" && UUID.test(value)) return value;
  ctx.addIssue({
    code: "custom",
    message: value === undefined ? "is missing" : `is not a UUID (${describeValue(value)})`,
  });
  return z.NEVER;
});

/** A value computed rather than read, e.g. a flag telling known variants from the generic one. */
export function constant<const T>(value: T) {
  return z.transform((): T => value);
}

type Shape = Record<string, z.ZodType>;
type AtKey<S extends z.ZodType> = z.ZodTransform<z.output<S>, unknown>;

function atKey<S extends z.ZodType>(key: string, schema: S): AtKey<S> {
  const shortcut = shortcuts.get(schema);
  return z.transform((value: unknown, ctx): z.output<S> => {
    if (shortcut) {
      const known = shortcut(value);
      if (known !== MISS) return known as z.output<S>;
    }
    return atPath(key, () => {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    });
  });
}

/**
 * A resource object: known fields read with their (tolerant) schemas, unknown fields kept as
 * received. Each field reads under its key, so a problem names its path.
 */
export function looseResource<const S extends Shape>(shape: S) {
  const keyed: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) keyed[key] = atKey(key, schema);
  return z.looseObject(keyed as { [K in keyof S]: AtKey<S[K]> });
}
