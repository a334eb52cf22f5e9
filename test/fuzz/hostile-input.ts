import fc from "fast-check";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";

// What a hostile or broken client sends, for the fuzz tests of the webhook and the server
// actions: injection strings, odd unicode, huge values, wrong shapes.

export const INJECTIONS = [
  "' OR '1'='1",
  "'; drop table users; --",
  "1; select pg_sleep(5)",
  '" onmouseover="alert(1)',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "${7*7}{{7*7}}",
  "../../etc/passwd",
  "%00%27%22",
  "=cmd|'/c calc'!A1",
  "null",
  "undefined",
  "true",
  "-1",
  "1e309",
  "NaN",
  "0x7fffffff",
  "00000000-0000-0000-0000-000000000000",
  "[object Object]",
];

export const ODD_UNICODE = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff lone",
  "\u202e\u0644\u0627 right-to-left",
  "e\u0301\u0301\u0301",
  "\ufeffbom",
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "\r\n\t\u000b\u000c",
  "Ａｄｍｉｎ",
];

/** A string no form expects: injection, odd unicode, huge, or anything at all. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS, ...ODD_UNICODE),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(10_000, 200_000, 1_100_000).map((n) => "A".repeat(n)),
  fc.constantFrom(...INJECTIONS).map((s) => s.repeat(500)),
);

/** One form field as a hostile client sends it: absent, one odd value, several values, or a file. */
export type HostileValue =
  | { kind: "missing" }
  | { kind: "one"; value: string }
  | { kind: "many"; values: string[] }
  | { kind: "file"; name: string };

export function hostileValue(usual: string[] = []): fc.Arbitrary<HostileValue> {
  const value = usual.length > 0 ? fc.oneof(hostileString, fc.constantFrom(...usual)) : hostileString;
  return fc.oneof(
    fc.constant<HostileValue>({ kind: "missing" }),
    value.map<HostileValue>((v) => ({ kind: "one", value: v })),
    fc.array(value, { minLength: 2, maxLength: 4 }).map<HostileValue>((values) => ({ kind: "many", values })),
    hostileString.map<HostileValue>((name) => ({ kind: "file", name: name.slice(0, 50) || "x" })),
  );
}

export function hostileForm(fields: Record<string, HostileValue>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value.kind === "one") data.append(name, value.value);
    else if (value.kind === "many") for (const v of value.values) data.append(name, v);
    else if (value.kind === "file")
      data.append(name, new Blob(["%PDF-1.4 not really"], { type: "application/pdf" }), value.name);
  }
  return data;
}

/** Shortens huge values so a failing case stays readable. */
export function describeForm(fields: Record<string, HostileValue>): string {
  const short = (s: string) =>
    s.length > 60 ? `${JSON.stringify(s.slice(0, 40))}…(${s.length} chars)` : JSON.stringify(s);
  return Object.entries(fields)
    .map(
      ([name, v]) =>
        `${name}=${v.kind === "one" ? short(v.value) : v.kind === "many" ? `[${v.values.map(short).join(", ")}]` : v.kind === "file" ? `<file ${short(v.name)}>` : "<missing>"}`,
    )
    .join(" ");
}

const WRITABLE_TABLES = [
  "users",
  "pulls",
  "policies",
  "pull_versions",
  "audit_events",
  "webhook_events",
  "assignment_settings",
  "sync_runs",
  "monitorings",
  "monitoring_events",
  "pull_auth_states",
  "reconnect_pages",
];

/** A fingerprint of every table an action or a webhook could write. */
export async function fingerprint(db: Db): Promise<string> {
  const parts = await Promise.all(
    WRITABLE_TABLES.map(
      async (t) =>
        (
          await queryRows<{ h: string | null }>(
            db,
            sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${t} t`),
          )
        )[0]?.h,
    ),
  );
  return parts.join(",");
}
