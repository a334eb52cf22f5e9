import "server-only";
import { isIP } from "node:net";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import { auditEvents, pulls, type AuditAction } from "@/db/schema";

// The incident-scope report: for a user, a session, a client address or a time window, the
// consumers whose data was viewed, downloaded or exported, grouped by their state of residence.
// It is the first thing a regulator's 72-hour breach notice asks for: how many residents of
// each state. It reads the audit trail only, so it covers what the trail recorded: the pull
// page, document and PDF downloads, look-ups, list CSVs, the calendar feed and leads sent to AgencyZoom. Its CSV, and the
// redisclosure log's, are in lib/csv/audit-exports.ts.

/** What a reading of the trail counts as, by the kind of entry. */
export const INCIDENT_READS = {
  PULL_VIEWED: "viewed",
  ENRICHMENT_REQUESTED: "viewed",
  ENRICHMENT_REUSED: "viewed",
  DOCUMENT_DOWNLOADED: "downloaded",
  CLIENT_SUMMARY_MADE: "downloaded",
  CSV_EXPORTED: "exported",
  CALENDAR_FEED_READ: "exported",
  /** A lead sent to AgencyZoom: the consumer's data left for the agency's management system. */
  HANDOFF_SENT: "exported",
} as const satisfies Partial<Record<AuditAction, string>>;
export type IncidentAccess = (typeof INCIDENT_READS)[keyof typeof INCIDENT_READS];

/** The longest window one report covers: an incident is scoped, not the whole history at once. */
export const MAX_WINDOW_DAYS = 366;
/** The most consumer rows one report lists (the counts by state cover them all the same). */
export const MAX_INCIDENT_ROWS = 50_000;

/** "2026-11-28" (the whole day) or "2026-11-28T14:05" (a minute, as a datetime-local field sends it), in UTC. */
const instantText = z
  .string()
  .trim()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?)?$/,
    "Write a date as 2026-11-28, or a time as 2026-11-28T14:05.",
  )
  // A day that does not exist (February 30th) would roll over into the next month.
  .refine(
    (value) => {
      const day = new Date(`${value.slice(0, 10)}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value.slice(0, 10));
    },
    {
      message: "That date does not exist.",
    },
  );

const startOf = (value: string) => new Date(value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
/** A day as the window's end includes the whole day; a time ends the window there. */
const endOf = (value: string) =>
  value.length === 10 ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000) : new Date(`${value}Z`);

const optionalText = (schema: z.ZodType<string>) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

export const incidentScopeInputSchema = z
  .object({
    user: optionalText(z.uuid({ message: "Choose a user from the list." })),
    session: optionalText(
      z
        .string()
        .trim()
        .pipe(z.uuid({ message: "A session id looks like 6f1c…-…: copy it from the audit trail." })),
    ),
    ip: optionalText(
      z
        .string()
        .trim()
        .max(45)
        .refine((value) => isIP(value) !== 0, { message: "Write one IPv4 or IPv6 address, like 203.0.113.7." }),
    ),
    from: z.string({ message: "Give the window's start." }).pipe(instantText),
    to: z.string({ message: "Give the window's end." }).pipe(instantText),
  })
  .transform((input) => ({ ...input, start: startOf(input.from), end: endOf(input.to) }))
  .refine((input) => input.end > input.start, { message: "The window must end after it starts.", path: ["to"] })
  .refine((input) => input.end.getTime() - input.start.getTime() <= MAX_WINDOW_DAYS * 86_400_000, {
    message: `One report covers at most ${MAX_WINDOW_DAYS} days: narrow the window.`,
    path: ["to"],
  });
export type IncidentScopeInput = z.output<typeof incidentScopeInputSchema>;

export type IncidentConsumer = {
  pullId: string;
  /** The consumer's name as the pull has it, or null when the pull is gone. */
  name: string | null;
  /** The state of residence (two letters), or null when the pull names none. */
  state: string | null;
  access: IncidentAccess;
  firstAt: Date;
  lastAt: Date;
  count: number;
};

export type IncidentScope = {
  input: IncidentScopeInput;
  /** Per state of residence (null: unknown), the number of distinct consumers; largest first. */
  states: Array<{ state: string | null; consumers: number }>;
  consumers: IncidentConsumer[];
  /** Distinct consumers in all. */
  total: number;
  /** More rows than MAX_INCIDENT_ROWS: the list stops there; the counts by state and the total do not. */
  truncated: boolean;
};

/** Every consumer a reading names: the one pull of the entry, or every pull of a bulk export. */
const ACCESS_SQL = sql.raw(
  `case ${Object.entries(INCIDENT_READS)
    .map(([action, access]) => `when e.action = '${action}' then '${access}'`)
    .join(" ")} end`,
);
const READ_ACTIONS = Object.keys(INCIDENT_READS);

/**
 * The state a consumer lives in: the physical address's, else the mailing one's, else any
 * address's, else the first policy's; read from the stored pull, as the service sent it.
 */
const stateOfResidence = (raw: SQL) => sql`(
  select upper(s.state) from (
    select a->>'state' as state, case a->>'address_nature' when 'PHYSICAL' then 0 when 'MAILING' then 1 else 2 end as rank, n
      from jsonb_array_elements(case when jsonb_typeof(${raw}->'addresses') = 'array' then ${raw}->'addresses' else '[]'::jsonb end) with ordinality as e(a, n)
    union all
    select q->>'state', 3, n
      from jsonb_array_elements(case when jsonb_typeof(${raw}->'policies') = 'array' then ${raw}->'policies' else '[]'::jsonb end) with ordinality as f(q, n)
  ) s
  where coalesce(trim(s.state), '') <> ''
  order by s.rank, s.n
  limit 1)`;

/**
 * The report's common table expressions (`hits`, `accessed`, `consumers`), which the list and the
 * counts both read. The window bounds `at` on both sides, so PostgreSQL reads only the trail's
 * monthly partitions that the window overlaps (docs/growth.md shows the plan).
 */
export function incidentScopeSql(input: IncidentScopeInput): SQL {
  const where: SQL[] = [
    sql`e.action in (${sql.join(
      READ_ACTIONS.map((action) => sql`${action}`),
      sql`, `,
    )})`,
    sql`e.at >= ${input.start.toISOString()}::timestamptz`,
    sql`e.at < ${input.end.toISOString()}::timestamptz`,
  ];
  if (input.user) where.push(sql`e.actor_id = ${input.user}`);
  if (input.session) where.push(sql`e.session_id = ${input.session}`);
  if (input.ip) where.push(sql`e.address = ${input.ip}`);
  // Each consumer once per kind of access, with their state: the list and the counts read the same rows.
  const consumersSql = sql`with hits as (
          select e.at, ${ACCESS_SQL} as access,
                 unnest(case when e.pull_ids is not null then e.pull_ids else array[e.pull_id] end) as pull_id
          from ${auditEvents} e
          where ${sql.join(where, sql` and `)}
        ), accessed as (
          select pull_id, access, min(at) as first_at, max(at) as last_at, count(*) as count
          from hits where pull_id is not null group by pull_id, access
        ), consumers as (
          select a.*, p.first_name, p.last_name, p.sort_name, ${stateOfResidence(sql`p.raw`)} as state
          from accessed a left join ${pulls} p on p.pull_id = a.pull_id
        )`;
  return consumersSql;
}

export async function getIncidentScope(db: Db, input: IncidentScopeInput): Promise<IncidentScope> {
  const consumersSql = incidentScopeSql(input);
  const [rows, counts] = await Promise.all([
    queryRows<{
      pull_id: string;
      access: IncidentAccess;
      first_at: Date | string;
      last_at: Date | string;
      count: number | string;
      first_name: string | null;
      last_name: string | null;
      state: string | null;
    }>(
      db,
      sql`${consumersSql}
          select pull_id, access, first_at, last_at, count, first_name, last_name, state from consumers
          order by state nulls last, sort_name, pull_id, access
          limit ${MAX_INCIDENT_ROWS + 1}`,
    ),
    // The counts by state are of every consumer, however long the list.
    queryRows<{ state: string | null; consumers: number | string }>(
      db,
      sql`${consumersSql}
          select state, count(distinct pull_id) as consumers from consumers group by state`,
    ),
  ]);
  const consumers: IncidentConsumer[] = rows.slice(0, MAX_INCIDENT_ROWS).map((row) => ({
    pullId: row.pull_id,
    name: [row.first_name, row.last_name].filter(Boolean).join(" ") || null,
    state: row.state,
    access: row.access,
    firstAt: new Date(row.first_at),
    lastAt: new Date(row.last_at),
    count: Number(row.count),
  }));
  const states = counts
    .map((row) => ({ state: row.state, consumers: Number(row.consumers) }))
    .sort((a, b) => b.consumers - a.consumers || (a.state ?? "~").localeCompare(b.state ?? "~"));
  return {
    input,
    states,
    consumers,
    // A consumer lives in one state: the states' counts add up to the distinct consumers.
    total: states.reduce((sum, row) => sum + row.consumers, 0),
    truncated: rows.length > MAX_INCIDENT_ROWS,
  };
}

/** The report's fields, as the page's filter form and its CSV link name them. */
export const INCIDENT_FIELDS = ["user", "session", "ip", "from", "to"] as const;
export type IncidentFields = Record<(typeof INCIDENT_FIELDS)[number], string>;

export type IncidentRequest =
  | { status: "empty"; fields: IncidentFields }
  | { status: "refused"; fields: IncidentFields; message: string; field: string | null }
  | { status: "ready"; fields: IncidentFields; input: IncidentScopeInput };

/**
 * A report asked for in a URL (the page, its CSV): nothing asked yet, refused with the first
 * problem in words (and the field it is about), or ready to run.
 */
export function readIncidentRequest(params: Record<string, string | string[] | undefined>): IncidentRequest {
  const first = (key: string) => {
    const raw = params[key];
    return (Array.isArray(raw) ? raw[0] : raw) ?? "";
  };
  const fields = Object.fromEntries(INCIDENT_FIELDS.map((key) => [key, first(key).slice(0, 200)])) as IncidentFields;
  if (INCIDENT_FIELDS.every((key) => fields[key].trim() === "")) return { status: "empty", fields };
  const parsed = incidentScopeInputSchema.safeParse(fields);
  if (parsed.success) return { status: "ready", fields, input: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  return {
    status: "refused",
    fields,
    message: issue?.message ?? "Check the filters.",
    field: typeof field === "string" ? field : null,
  };
}

/**
 * The report for the session an audit entry came through (or, without one, its address), over
 * the week up to the entry and the day after: the trail's way into the report.
 */
export function incidentScopeHrefFor(entry: {
  sessionId: string | null;
  address: string | null;
  at: Date;
}): string | null {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const by: [string, string] | null = entry.sessionId
    ? ["session", entry.sessionId]
    : entry.address
      ? ["ip", entry.address]
      : null;
  if (!by) return null;
  const at = entry.at.getTime();
  const params = new URLSearchParams([
    by,
    ["from", `${day(at - 7 * 86_400_000)}T00:00`],
    ["to", `${day(at + 86_400_000)}T00:00`],
  ]);
  return `/admin/incident?${params.toString()}`;
}
