import type { z } from "zod";

// Lists and reports keep their state in the URL. Each page names its fields with a zod schema
// per field; a missing or empty one is left out, and a bad one is dropped and named, so a
// shared or hand-edited link never breaks the page.

export type SearchParams = Record<string, string | string[] | undefined>;
export type ParsedFields<F extends Record<string, z.ZodType>> = {
  values: { [K in keyof F]?: z.output<F[K]> };
  ignored: string[];
};

/** A repeated parameter counts by its first value, here and in parseSearchFields. */
export function firstParam(params: SearchParams, key: string): string | undefined {
  const raw = params[key];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** A route handler's query string in the shape pages receive (`searchParams`), repeats kept. */
export function searchParamsOf(url: string | URL): SearchParams {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(url).searchParams) {
    const seen = params[key];
    params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/** Pages and route handlers read their query through this, each field with its own schema. */
export function parseSearchFields<F extends Record<string, z.ZodType>>(
  fields: F,
  params: SearchParams,
): ParsedFields<F> {
  const values: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, schema] of Object.entries(fields)) {
    const value = firstParam(params, key);
    if (value === undefined || value.trim() === "") continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) values[key] = parsed.data;
    else ignored.push(key);
  }
  return { values: values as ParsedFields<F>["values"], ignored };
}

/** An inclusive range of calendar days as instants: [from 00:00 UTC, the day after `to`). */
export function dayRange(from: string | undefined, to: string | undefined): { start: Date | null; end: Date | null } {
  return {
    start: from ? new Date(`${from}T00:00:00Z`) : null,
    end: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : null,
  };
}
