import type { z } from "zod";

// One parse must never fail because of one odd field, yet every oddity has to reach the UI:
// tolerant fields report here instead of failing. Zod runs transforms synchronously, so a
// module-scoped collector set around one synchronous parse sees exactly that parse's reports.

export type PayloadProblemKind = "wrong_type" | "dropped_item";

export type PayloadProblem = {
  /** Where the value sat, e.g. `policies[0].vehicles[1].year`. */
  path: string;
  kind: PayloadProblemKind;
  message: string;
  /** The value as received, so it can still be shown. */
  raw: unknown;
};

export type TolerantResult<T> = { ok: true; value: T; problems: PayloadProblem[] } | { ok: false; error: string };

let sink: PayloadProblem[] | null = null;
let segments: string[] = [];

function joinPath(parts: readonly string[]): string {
  return parts.reduce((path, part) => (part.startsWith("[") || path === "" ? `${path}${part}` : `${path}.${part}`), "");
}

/** Records a problem at the current path (plus `suffix`, e.g. an array index). */
export function reportProblem(kind: PayloadProblemKind, message: string, raw: unknown, suffix?: string): void {
  sink?.push({
    path: joinPath(suffix === undefined ? segments : [...segments, suffix]) || "(root)",
    kind,
    message,
    raw,
  });
}

/** Runs `read` with `segment` appended to the path that problems are reported at. */
export function atPath<T>(segment: string, read: () => T): T {
  segments.push(segment);
  try {
    return read();
  } finally {
    segments.pop();
  }
}

/**
 * Runs `read` holding back what it reports: the caller keeps the problems only when it keeps
 * the value. An item that is dropped whole is reported once, not once per field inside it.
 */
export function tentatively<T>(read: () => T): { result: T; problems: PayloadProblem[] } {
  const outer = sink;
  const held: PayloadProblem[] = [];
  sink = outer ? held : null;
  try {
    return { result: read(), problems: held };
  } finally {
    sink = outer;
  }
}

/** Keeps problems that `tentatively` held back. */
export function keepProblems(problems: readonly PayloadProblem[]): void {
  sink?.push(...problems);
}

/** Runs one synchronous parse and returns everything its tolerant fields reported. */
export function collectProblems<T>(read: () => T): { result: T; problems: PayloadProblem[] } {
  const outerSink = sink;
  const outerSegments = segments;
  const problems: PayloadProblem[] = [];
  sink = problems;
  segments = [];
  try {
    return { result: read(), problems };
  } finally {
    sink = outerSink;
    segments = outerSegments;
  }
}

/** A short description of a received value for messages ("a number", "an array"…). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value === "number" ? "the number" : `the ${typeof value}`} ${String(value)}`;
}

/** Zod's issues as one readable line: `pull_id: is missing; policies.0.policy_id: …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Parses `raw` with a tolerant schema; fails only where the schema has required parts. */
export function parseTolerant<S extends z.ZodType>(schema: S, raw: unknown): TolerantResult<z.output<S>> {
  const { result, problems } = collectProblems(() => schema.safeParse(raw));
  if (!result.success) return { ok: false, error: describeIssues(result.error) };
  return { ok: true, value: result.data, problems };
}
