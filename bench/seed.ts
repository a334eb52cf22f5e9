// A book of pulls at scale, deterministically, for the benchmarks: payloads come from the
// sandbox's own generator, served as the sandbox serves them, and are projected by the app's
// own ingestion code (parsePull, projectPull, projectPolicies, contentHash), so every row is
// the one storePull would write. Only the writing differs: on PostgreSQL, COPY in one
// transaction (bench/bulk-load.ts), on PGlite multi-row INSERTs of hundreds of pulls; secondary
// indexes dropped during the load and rebuilt after.
// On top, the agency's side: users, assignments, the funnel (WORKING / WON / LOST with
// premiums) with their audit trail, and monitoring on some accounts, as the workflow commands
// would have left them.
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { queryRows } from "@/db/connect";
import type { Db } from "@/db/types";
import {
  auditEvents,
  householdGaps,
  lostDecisions,
  monitorings,
  policies,
  policyXDates,
  pulls,
  users,
} from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { canonicalJson, hashCanonicalJson, projectPolicies, projectPull } from "@/lib/pulls/projection";
import { sealSensitive } from "@/lib/security/sensitive-fields";
import { isReadingType } from "@/lib/pulls/pull-types";
import { parsePull, unwrapPull, type Pull } from "@/lib/service/schemas";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/auth/demo-users";
import { xdateRowsOf } from "@/lib/xdates/rows";
import { householdRowOf } from "@/lib/cross-sell/store";
import { newestOfAccount } from "@/lib/pulls/newest-of-account";
import { reconcileMonitoredFlags } from "@/lib/monitoring/monitored-flag";
import { rebuildReportRollups } from "@/lib/reports/rollups";
import { rebuildCrossSellCounts } from "@/lib/cross-sell/kept-counts";
import { rebuildXDateSums } from "@/lib/xdates/kept-sums";
import type { Line } from "@/sandbox/data/lines";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createRandom, createWideRandom, type Random } from "@/sandbox/data/random";
import {
  addForeignKeys,
  copyInto,
  dropForeignKeys,
  inLoadTransaction,
  runSideBySide,
  withoutTriggers,
} from "./bulk-load";
import { copyPlan, copyText, DriverText } from "./copy-rows";
import { PhaseClock, stepTimer } from "./seed-timings";

export type SeedOptions = {
  count: number;
  seed?: number;
  /** The anchor of every generated date (default: today, 00:00 UTC). */
  now?: Date;
  /** Pulls per generator call; each chunk is generatePulls(seed + chunk, size, now). */
  chunkSize?: number;
  /** Pulls per INSERT statement (PGlite; PostgreSQL is written with COPY). */
  batchSize?: number;
  /** Worker threads that project chunks (PostgreSQL only); default: one per core from 5,000 pulls. */
  threads?: number;
  /** Secondary indexes dropped for the load and built after it; default: from 5,000 pulls. */
  rebuildIndexes?: boolean;
  /** Funnel, assignees, audit trail and monitorings; off gives exactly what ingestion alone writes. */
  workflow?: boolean;
  /** Where the sandbox serves documents from, for their absolute download URLs. */
  sandboxOrigin?: string;
  teamId?: string;
  onProgress?: (done: number, total: number) => void;
};

export const BENCH_TEAM_ID = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const API_PREFIX = "/api/v1.0.0";

/** Fixed ids, so two seeds of the same book are identical row for row. */
const userId = (n: number) => `b0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
export const SEED_AGENTS = [
  { id: userId(11), email: "dana.whitfield@agency.example.com", name: "Dana Whitfield" },
  { id: userId(12), email: "alex.rivera@agency.example.com", name: "Alex Rivera" },
  { id: userId(13), email: "jordan.blake@agency.example.com", name: "Jordan Blake" },
  { id: userId(14), email: "mei.tanaka@agency.example.com", name: "Mei Tanaka" },
  { id: userId(15), email: "sam.okafor@agency.example.com", name: "Sam Okafor" },
] as const;
export const SEED_DEMO_IDS = {
  "admin@example.com": userId(1),
  "manager@example.com": userId(2),
  "agent@example.com": userId(3),
} as Record<string, string>;

/** The pull as GET /pulls/{id} on the sandbox answers it: team id set, download URLs absolute. */
export function servedPayload(pull: SandboxPull, origin: string, teamId: string): Record<string, unknown> {
  const absolute = (u: unknown) => (typeof u === "string" && u.startsWith("/") ? `${origin}${API_PREFIX}${u}` : u);
  const isObject = (v: unknown): v is Record<string, unknown> =>
    Boolean(v) && typeof v === "object" && !Array.isArray(v);
  const objects = (value: unknown) => (Array.isArray(value) && value.every(isObject) ? value : null);
  const withTeam: Record<string, unknown> = { ...pull, team_id: teamId };
  const documents =
    objects(withTeam.documents)?.map((d) => ({ ...d, download_url: absolute(d.download_url) })) ?? withTeam.documents;
  const answers =
    objects(withTeam.answers)?.map((section) => {
      const fields = objects(section.fields);
      if (!fields) return section;
      return {
        ...section,
        fields: fields.map((f) => {
          const files = objects(f.value);
          return files
            ? { ...f, value: files.map((file) => ({ ...file, download_url: absolute(file.download_url) })) }
            : f;
        }),
      };
    }) ?? withTeam.answers;
  return { ...withTeam, documents, answers };
}

type PullInsert = typeof pulls.$inferInsert;
type PolicyInsert = typeof policies.$inferInsert;

/**
 * The rows storePull writes for a new pull, computed by the same functions; null if it would
 * refuse it. `rawJson` is the payload's canonical JSON, which contentHash hashes: a COPY stores
 * that text as `raw` (jsonb keeps no key order, so the value is the same) instead of
 * serializing the payload a second time.
 */
export function projectedRows(
  payload: unknown,
  fetchedAt: Date,
): { pull: PullInsert; policies: PolicyInsert[]; rawJson: string; parsed: Pull; raw: unknown } | null {
  const raw = unwrapPull(payload);
  const parsed = parsePull(raw);
  if (!parsed.ok) return null;
  const { pull, problems } = parsed;
  const projection = projectPull(pull);
  const unique = [...new Map(projectPolicies(pull).map((p) => [p.policyId, p])).values()];
  const rawJson = canonicalJson(raw); // contentHash(raw), with its text kept
  return {
    pull: {
      pullId: pull.pull_id,
      ...projection,
      raw,
      payloadProblems: problems,
      contentHash: hashCanonicalJson(rawJson),
      fetchedAt,
    },
    policies: unique.map((p) => ({ ...p, pullId: pull.pull_id })),
    rawJson,
    parsed: pull,
    raw,
  };
}

/**
 * The book's mix of lines: an agency's book leans to households with several policies (about
 * 2.5 per pull, 250,000 policies for 100,000 pulls), more than the sandbox's demo mix of about 2.
 */
const BOOK_LINES: readonly Line[] = [
  "home+auto",
  "home+auto+umbrella",
  "commercial",
  "renters+auto",
  "home+auto+umbrella",
  "condo+umbrella",
  "commercial",
  "home+auto+umbrella",
  "life+auto",
  "commercial",
  "home+auto",
  "auto",
];

/** The book, chunk by chunk, so 100,000 pulls never sit in memory at once. */
export function* seedPayloadChunks(
  seed: number,
  count: number,
  now: Date,
  chunkSize: number,
): Generator<SandboxPull[]> {
  for (let chunk = 0; chunk * chunkSize < count; chunk++) yield seedPayloadChunk(seed, count, now, chunkSize, chunk);
}

/** Chunk number `chunk` of the book alone (what a seeding worker generates). */
export function seedPayloadChunk(
  seed: number,
  count: number,
  now: Date,
  chunkSize: number,
  chunk: number,
): SandboxPull[] {
  // A stream of its own per chunk (createWideRandom): seeds of one 32-bit generator overlap
  // across a million pulls, and the repeated draws repeated pull ids.
  const size = Math.min(chunkSize, count - chunk * chunkSize);
  return generatePulls(seed, size, now, BOOK_LINES, createWideRandom(seed, chunk));
}

const LOST_REASONS = [
  "Price",
  "Stayed with current carrier",
  "No response",
  "Coverage not available",
  "Bought elsewhere",
];
const INTERVALS = ["P1M", "P3M", "P6M", "P1Y"];
const DAY = 86_400_000;

type Workflow = {
  pull: Partial<PullInsert>;
  audit: Array<typeof auditEvents.$inferInsert>;
  monitoring: typeof monitorings.$inferInsert | null;
};

/** The agency's side of one pull, as assignment and the funnel commands would have left it. */
function workflowOf(random: Random, row: PullInsert, now: Date, manager: { id: string; name: string }): Workflow {
  const none: Workflow = { pull: {}, audit: [], monitoring: null };
  if (row.parentPullId || row.status !== "SUCCESS") return none;
  const created = row.serviceCreatedAt ?? new Date(now.getTime() - 30 * DAY);
  const age = Math.max(0, now.getTime() - created.getTime());
  const audit: Workflow["audit"] = [];
  const out: Partial<PullInsert> = {};
  const agent = random.chance(0.78) ? random.pick(SEED_AGENTS) : null;
  if (agent) {
    const assignedAt = new Date(created.getTime() + random.next() * Math.min(age, 2 * DAY));
    Object.assign(out, {
      assigneeId: agent.id,
      assignedAt,
      assigneeSeenAt: random.chance(0.85)
        ? new Date(assignedAt.getTime() + random.next() * Math.min(now.getTime() - assignedAt.getTime(), DAY))
        : null,
    });
    audit.push({
      at: assignedAt,
      actorId: manager.id,
      actorName: manager.name,
      action: "PULL_ASSIGNED",
      pullId: row.pullId,
      subjectUserId: agent.id,
      details: { from: null, to: agent.id, toName: agent.name },
    });
    const roll = random.next();
    const stage = roll < 0.5 ? "WORKING" : roll < 0.78 ? "WON" : "LOST";
    if (stage !== "WORKING") {
      const from = out.assignedAt as Date;
      const stageChangedAt = new Date(from.getTime() + random.next() * Math.max(0, now.getTime() - from.getTime()));
      const premium =
        row.totalPremiumCents && row.totalPremiumCents > 0
          ? Math.round(row.totalPremiumCents * (0.85 + random.next() * 0.2))
          : random.int(40_000, 400_000);
      const wonPremiumCents = stage === "WON" ? premium : null;
      const lostReason = stage === "LOST" ? (random.chance(0.7) ? random.pick(LOST_REASONS) : null) : null;
      Object.assign(out, {
        stage,
        stageChangedAt,
        wonPremiumCents,
        wonCreditedTo: stage === "WON" ? agent.id : null,
        lostReason,
      });
      audit.push({
        at: stageChangedAt,
        actorId: agent.id,
        actorName: agent.name,
        action: "STAGE_CHANGED",
        pullId: row.pullId,
        details: {
          from: "WORKING",
          to: stage,
          wonPremiumCents,
          previousWonPremiumCents: null,
          lostReason,
          creditedTo: stage === "WON" ? agent.id : null,
        },
      });
    }
    // The first touch as the commands record it (and migration 0022 backfills it): the assignee
    // opening the pull or deciding it, whichever came first; the reports' time to first touch.
    const touches = [out.assigneeSeenAt, out.stageChangedAt].filter((d): d is Date => d instanceof Date);
    if (touches.length > 0) out.firstTouchedAt = new Date(Math.min(...touches.map((d) => d.getTime())));
  }
  let monitoring: Workflow["monitoring"] = null;
  if (random.chance(0.04)) {
    const reconnect = random.chance(0.1);
    monitoring = {
      monitoringId: `mon_${(row.pullId as string).replace(/-/g, "").slice(0, 24)}`,
      initialPullId: row.pullId,
      latestPullId: row.pullId,
      accountIdentifier: row.accountIdentifier,
      status: random.chance(0.9) ? "ACTIVE" : "STOPPED",
      interval: random.pick(INTERVALS),
      nextPullDate: new Date(now.getTime() + random.int(1, 360) * DAY),
      reconnectRequestedAt: reconnect ? new Date(now.getTime() - random.int(1, 20) * DAY) : null,
      reconnectAuthStatus: reconnect ? "NOT_AUTHENTICATED" : null,
      updatedAt: created,
    };
  }
  return { pull: out, audit, monitoring };
}

async function insertUsers(db: Db): Promise<void> {
  const demoHash = await hashPassword(DEMO_PASSWORD);
  const agentHash = await hashPassword(`bench-agent-${Math.random()}`); // nobody signs in as them
  await db
    .insert(users)
    .values([
      ...DEMO_USERS.map((u) => ({ ...u, id: SEED_DEMO_IDS[u.email] as string, passwordHash: demoHash })),
      ...SEED_AGENTS.map((a) => ({
        id: a.id,
        email: a.email,
        name: a.name,
        role: "AGENT" as const,
        passwordHash: agentHash,
      })),
    ])
    .onConflictDoNothing();
}

/** How many months back the seed makes the audit trail's partitions: past the oldest seeded pull. */
const SEEDED_AUDIT_MONTHS = 6;

type IndexDef = { name: string; def: string };

/** Secondary indexes of the bulk-loaded tables: dropped for the load, rebuilt after (much faster). */
async function dropSecondaryIndexes(db: Db): Promise<IndexDef[]> {
  const rows = await queryRows<{ name: string; def: string }>(
    db,
    sql`select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.schemaname = 'public' and i.tablename in ('pulls', 'policies', 'audit_events', 'policy_xdates', 'household_gaps')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const r of rows) await db.execute(sql.raw(`drop index if exists "${r.name}"`));
  // A partitioned table's index reads "ON ONLY" in pg_indexes: run as it reads, it would make an
  // invalid index of the parent alone, none on its months, and every audit query a scan of them
  // all (1.9 s at a million pulls). Without ONLY it is built on every partition, as the migration made it.
  return rows.map((r) => ({ ...r, def: r.def.replace(/ ON ONLY /i, " ON ") }));
}

export type SeedSummary = {
  pulls: number;
  policies: number;
  auditEvents: number;
  monitorings: number;
  policyXDates: number;
  householdGaps: number;
  seconds: number;
  /** Where the time went: rows written, indexes rebuilt, VACUUM ANALYZE (seconds). */
  phases: { load: number; indexes: number; vacuum: number };
  /** Seconds per step (seed-timings.ts): the workers' steps summed over the threads. */
  timings: Record<string, number>;
};

/** What a chunk of the book is written from; everything in it depends on (seed, chunk) only. */
export type ChunkSpec = {
  seed: number;
  count: number;
  now: Date;
  chunkSize: number;
  chunk: number;
  workflow: boolean;
  origin: string;
  teamId: string;
};
export type ChunkRows = {
  pulls: PullInsert[];
  policies: PolicyInsert[];
  auditEvents: Array<typeof auditEvents.$inferInsert>;
  monitorings: Array<typeof monitorings.$inferInsert>;
  policyXDates: Array<typeof policyXDates.$inferInsert>;
  householdGaps: Array<typeof householdGaps.$inferInsert>;
};

const MANAGER = { id: SEED_DEMO_IDS["manager@example.com"] as string, name: "Morgan Manager" };

/**
 * The X-date and cross-sell rows storePull writes beside a pull (the same functions, on the
 * payload already parsed for its projection), for every pull that lists them: top-level and
 * successful. Whether it is its account's newest is known only once the whole
 * book is in: the rows of older pulls are deleted then (dropSuperseded).
 */
function derivedRows(row: PullInsert, pull: Pull, raw: unknown, today: string) {
  if (row.parentPullId || row.status !== "SUCCESS" || !isReadingType(row.type ?? null)) return null;
  const owner = {
    pullId: row.pullId,
    accountIdentifier: row.accountIdentifier ?? null,
    assigneeId: row.assigneeId ?? null,
    stage: row.stage ?? "WORKING",
    publicAlias: row.publicAlias ?? null,
  };
  return {
    xdates: xdateRowsOf(pull, raw, today).map((x) => ({ ...x, ...owner })),
    household: {
      ...householdRowOf(pull, owner.accountIdentifier, today),
      assigneeId: owner.assigneeId,
      stage: owner.stage,
    },
  };
}

/**
 * The rows of one chunk: payloads projected by the app's ingestion code, plus the agency's side.
 * `rawAsText` gives each pull's `raw` as its JSON text, for COPY (see projectedRows).
 */
export function chunkRows(spec: ChunkSpec, rawAsText = false, timer = stepTimer()): ChunkRows {
  const random = createRandom(spec.seed * 7_919 + spec.chunk + 1_000_000);
  const today = spec.now.toISOString().slice(0, 10);
  const out: ChunkRows = {
    pulls: [],
    policies: [],
    auditEvents: [],
    monitorings: [],
    policyXDates: [],
    householdGaps: [],
  };
  const payloads = seedPayloadChunk(spec.seed, spec.count, spec.now, spec.chunkSize, spec.chunk);
  timer.lap("generate");
  for (const generated of payloads) {
    // Fetched a minute after the service created it, like a webhook-driven fetch.
    const fetchedAt = new Date(Math.min(spec.now.getTime(), Date.parse(generated.created_at) + 60_000));
    const rows = projectedRows({ success: true, pull: servedPayload(generated, spec.origin, spec.teamId) }, fetchedAt);
    if (!rows) throw new Error(`The generator produced a pull the app refuses: ${generated.pull_id}`);
    timer.lap("parse, project, hash");
    // A COPY writes the text as is, past the sealed column's codec: its personal values are sealed here.
    let row = rawAsText ? { ...rows.pull, raw: new DriverText(JSON.stringify(sealSensitive(rows.raw))) } : rows.pull;
    timer.lap("seal, serialize");
    if (spec.workflow) {
      const extra = workflowOf(random, row, spec.now, MANAGER);
      row = { ...row, ...extra.pull, createdAt: fetchedAt, updatedAt: fetchedAt };
      out.auditEvents.push(...extra.audit);
      if (extra.monitoring) out.monitorings.push(extra.monitoring);
    }
    out.pulls.push(row);
    out.policies.push(...rows.policies);
    const derived = derivedRows(row, rows.parsed, rows.raw, today);
    if (derived) {
      out.policyXDates.push(...derived.xdates);
      out.householdGaps.push(derived.household);
    }
    timer.lap("workflow, X-dates, households");
  }
  return out;
}

/**
 * A chunk as COPY text per table (see copy-rows.ts), UTF-8 encoded where it was computed: a
 * worker hands the bytes over (transferred, not copied) and they go to the socket as they are.
 * As strings, each chunk's 27 MB were cloned across threads and encoded again on the main thread.
 */
export type ChunkCopy = Record<keyof ChunkRows, Uint8Array> & {
  counts: Record<keyof ChunkRows, number>;
  /** Milliseconds per step of the thread that computed it (seed-timings.ts). */
  ms: Record<string, number>;
};
const plans = {
  pulls: copyPlan(pulls),
  policies: copyPlan(policies),
  auditEvents: copyPlan(auditEvents),
  monitorings: copyPlan(monitorings),
  policyXDates: copyPlan(policyXDates),
  householdGaps: copyPlan(householdGaps),
};
const schemaOf = { pulls, policies, auditEvents, monitorings, policyXDates, householdGaps };
/** Foreign keys: pulls first. */
export const TABLES = ["pulls", "policies", "auditEvents", "monitorings", "policyXDates", "householdGaps"] as const;

/**
 * `text` as UTF-8 in an ArrayBuffer of its own, to be transferred. Buffer.from encodes a big
 * string about three times as fast as TextEncoder; a short one it writes into node's shared
 * pool, which must not be transferred, so that one is copied out.
 */
function ownBytes(text: string): Uint8Array {
  const bytes = Buffer.from(text, "utf8");
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : new Uint8Array(bytes);
}

export function chunkCopy(spec: ChunkSpec): ChunkCopy {
  const timer = stepTimer();
  const rows = chunkRows(spec, true, timer);
  const copy = { counts: {}, ms: timer.ms } as ChunkCopy;
  for (const table of TABLES) {
    copy[table] = ownBytes(copyText(plans[table], rows[table] as Array<Record<string, unknown>>));
    copy.counts[table] = rows[table].length;
  }
  timer.lap("COPY text");
  return copy;
}

/** Deletes the X-date and cross-sell rows of pulls a newer pull of their account supersedes. */
async function dropSuperseded(db: Db): Promise<void> {
  const superseded = sql`(select ${pulls.pullId} from ${pulls} where not ${newestOfAccount})`;
  await db.execute(sql`delete from ${policyXDates} where ${policyXDates.pullId} in ${superseded}`);
  await db.execute(sql`delete from ${householdGaps} where ${householdGaps.pullId} in ${superseded}`);
}

/** The postgres-js client behind a drizzle database, or null (PGlite has no COPY from a stream). */
function postgresClientOf(db: Db): postgres.Sql | null {
  const client = (db as unknown as { $client?: unknown }).$client as (postgres.Sql & { unsafe?: unknown }) | undefined;
  return client && typeof client.unsafe === "function" && typeof (client as { begin?: unknown }).begin === "function"
    ? client
    : null;
}

/**
 * Chunks computed by `threads` worker threads (bench/seed-worker.ts), handed back in chunk order.
 * Projection (zod parsing, hashing) is most of the seeding's cost: it spreads over the cores.
 */
function chunksFromWorkers(specs: ChunkSpec[], threads: number): AsyncGenerator<ChunkCopy> {
  // A worker thread does not inherit tsx's loader: it registers it before loading the worker.
  const file = path.join(process.cwd(), "bench", "seed-worker.ts");
  const boot = `require("tsx/cjs/api").register(); require(${JSON.stringify(file)});`;
  const workers = Array.from({ length: threads }, () => new Worker(boot, { eval: true }));
  const results = new Map<
    number,
    { resolve: (c: ChunkCopy) => void; reject: (e: unknown) => void; promise: Promise<ChunkCopy> }
  >();
  const slot = (chunk: number) => {
    let entry = results.get(chunk);
    if (!entry) {
      let resolve!: (c: ChunkCopy) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<ChunkCopy>((a, b) => {
        resolve = a;
        reject = b;
      });
      promise.catch(() => {});
      entry = { resolve, reject, promise };
      results.set(chunk, entry);
    }
    return entry;
  };
  let next = 0;
  // Each worker keeps at most two chunks in hand, so memory stays bounded on a million pulls.
  const ahead = threads * 2;
  let written = 0;
  const feed = (worker: Worker) => {
    if (next < specs.length && next < written + ahead) worker.postMessage(specs[next++]);
  };
  for (const worker of workers) {
    worker.on("message", (message: { chunk: number; copy?: ChunkCopy; error?: string }) => {
      if (message.copy) slot(message.chunk).resolve(message.copy);
      else slot(message.chunk).reject(new Error(message.error));
      feed(worker);
    });
    worker.on("error", (error) => {
      for (const entry of results.values()) entry.reject(error);
    });
  }
  for (const worker of workers) {
    feed(worker);
    feed(worker);
  }
  return (async function* () {
    try {
      for (let chunk = 0; chunk < specs.length; chunk++) {
        const copy = await slot(chunk).promise;
        results.delete(chunk);
        written++;
        for (const worker of workers) feed(worker);
        yield copy;
      }
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  })();
}

async function* chunksInProcess(specs: ChunkSpec[]): AsyncGenerator<ChunkCopy> {
  for (const spec of specs) yield chunkCopy(spec);
}

/** Seeds an empty, migrated database. */
export async function seedDatabase(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
  const chunkSize = options.chunkSize ?? 1_000;
  const batchSize = options.batchSize ?? 250;
  const workflow = options.workflow ?? true;
  const origin = options.sandboxOrigin ?? "http://127.0.0.1:4410";
  const teamId = options.teamId ?? BENCH_TEAM_ID;
  const [existing] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pulls`);
  if ((existing?.n ?? 0) > 0) throw new Error("The database already holds pulls: seed a fresh one.");

  if (workflow) await insertUsers(db);
  // The audit trail's months, as the partition job would have made them as they came: else the
  // seeded history would all land in the DEFAULT partition (docs/growth.md).
  if (workflow)
    await db.execute(
      sql`select create_month_partition('audit_events', (date_trunc('month', ${now.toISOString()}::timestamptz at time zone 'UTC') - make_interval(months => m))::date)
          from generate_series(1, ${SEEDED_AUDIT_MONTHS}) m`,
    );
  const indexes = (options.rebuildIndexes ?? options.count >= 5_000) ? await dropSecondaryIndexes(db) : [];
  const totals = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<(typeof TABLES)[number], number>;
  const specs: ChunkSpec[] = [];
  for (let chunk = 0; chunk * chunkSize < options.count; chunk++)
    specs.push({ seed, count: options.count, now, chunkSize, chunk, workflow, origin, teamId });
  const client = postgresClientOf(db);

  // PostgreSQL: one connection of its own for the whole load, so its transaction and session
  // settings hold for every statement of it (the pool would hand each to any of its connections).
  const session = client ? await client.reserve() : null;
  const clock = new PhaseClock();
  let loaded = 0;
  let indexed = 0;
  try {
    if (session) {
      const foreignKeys = await clock.time("foreign keys dropped", () => dropForeignKeys(session));
      // COPY, chunk by chunk, while worker threads project the next chunks.
      const threads = options.threads ?? (options.count >= 5_000 ? Math.max(1, os.cpus().length) : 0);
      const chunks = threads > 0 ? chunksFromWorkers(specs, threads) : chunksInProcess(specs);
      await withoutTriggers(session, () =>
        inLoadTransaction(session, async (freeze) => {
          const iterator = chunks[Symbol.asyncIterator]();
          // Stopped early (a refused COPY), the workers are ended all the same.
          try {
            for (;;) {
              // Time the main thread waits for the next chunk: the workers are the bottleneck then.
              const next = await clock.time("waiting for the workers", () => iterator.next());
              if (next.done) break;
              const copy = next.value;
              clock.addMilliseconds("workers: ", copy.ms);
              for (const table of TABLES) {
                if (copy.counts[table] === 0) continue;
                // PostgreSQL cannot COPY FREEZE into a partitioned table (the audit trail, by month).
                await clock.time(`copy ${plans[table].table}`, () =>
                  copyInto(session, plans[table], copy[table], freeze && table !== "auditEvents"),
                );
                totals[table] += copy.counts[table];
              }
              options.onProgress?.(totals.pulls, options.count);
            }
          } finally {
            await iterator.return?.(undefined);
          }
        }),
      );
      await clock.time("foreign keys added (validated)", () => addForeignKeys(session, foreignKeys));
    } else {
      // PGlite: multi-row INSERTs, one chunk written while the next is generated.
      let pending: Promise<void> = Promise.resolve();
      for (const spec of specs) {
        const rows = chunkRows(spec);
        await pending;
        pending = (async () => {
          await db.transaction(async (tx) => {
            for (let i = 0; i < rows.pulls.length; i += batchSize)
              await tx.insert(pulls).values(rows.pulls.slice(i, i + batchSize));
            for (const table of TABLES.slice(1)) {
              const all = rows[table] as Array<Record<string, unknown>>;
              for (let i = 0; i < all.length; i += 1_000)
                await tx.insert(schemaOf[table]).values(all.slice(i, i + 1_000) as never);
            }
          });
          for (const table of TABLES) totals[table] += rows[table].length;
          options.onProgress?.(totals.pulls, options.count);
        })();
      }
      await pending;
    }
    loaded = performance.now();
    // GIN builds (trigram search, policy types) take longest: first, beside the B-trees.
    const builds = [
      ...indexes.filter((i) => / using gin /i.test(i.def)),
      ...indexes.filter((i) => !/ using gin /i.test(i.def)),
    ];
    const indexName = new Map(builds.map((i) => [i.def, i.name]));
    // Statistics and the visibility map, as autovacuum would leave a settled database.
    const vacuums = [
      "pulls",
      "policies",
      "policy_xdates",
      "household_gaps",
      "alerts",
      "lost_decisions",
      "audit_events",
      "monitorings",
      "users",
      "report_facts",
      "report_rollups",
      "cross_sell_counts",
      "xdate_sums",
      "xdate_option_sums",
    ].map((t) => `vacuum analyze ${t}`);
    const derive = async () => {
      await clock.time("superseded X-dates and households deleted", () => dropSuperseded(db));
      await clock.time("monitored flags", () => reconcileMonitoredFlags(db));
      await clock.time("lost decisions", () => seedLostDecisions(db));
      await clock.time("alerts", () => seedAlerts(db));
      await clock.time("report rollups", () => rebuildReportRollups(db));
      // After the superseded households went (their deletes appended deltas): the counts from the rows left.
      await clock.time("cross-sell counts", () => rebuildCrossSellCounts(db));
      // After the superseded X-dates went (their deletes left deltas the rebuild drops).
      await clock.time("x-date sums", () => rebuildXDateSums(db));
    };
    if (session && client) {
      const second = await client.reserve();
      try {
        // Index builds may use more memory than a query: much faster on a big book.
        for (const s of [session, second]) await s.unsafe("set maintenance_work_mem = '512MB'");
        const started = performance.now();
        await runSideBySide(
          [session, second],
          builds.map((i) => i.def),
          (statement, seconds) => clock.add(`index ${indexName.get(statement) ?? statement}`, seconds),
        );
        clock.add("indexes (wall, two connections)", (performance.now() - started) / 1000);
        // The derivations need the new rows' statistics: on a table the planner still takes for
        // empty, the deletes' anti-join becomes a nested loop over the whole book, and the
        // monitored rule a scan of every monitoring per candidate pull (159 s at a million).
        await clock.time("analyze pulls, policies, monitorings", () =>
          runSideBySide([session, second], ["analyze pulls", "analyze policies", "analyze monitorings"]),
        );
        await derive();
        indexed = performance.now();
        await runSideBySide([session, second], vacuums, (statement, seconds) => clock.add(statement, seconds));
      } finally {
        second.release();
      }
    } else {
      for (const index of builds)
        await clock.time(`index ${index.name}`, () => db.execute(sql.raw(index.def)).then(() => undefined));
      for (const table of ["pulls", "policies", "monitorings"]) await db.execute(sql.raw(`analyze ${table}`));
      await derive();
      indexed = performance.now();
      for (const statement of vacuums) await clock.time(statement, () => db.execute(sql.raw(statement)));
    }
  } finally {
    session?.release();
  }
  const ended = performance.now();
  return {
    ...totals,
    seconds: (ended - started) / 1000,
    phases: { load: (loaded - started) / 1000, indexes: (indexed - loaded) / 1000, vacuum: (ended - indexed) / 1000 },
    timings: clock.toJSON(),
  };
}

/**
 * The history of losses the stage command would have written for the LOST pulls the seed
 * decided (lib/workflow/lost-decisions.ts): the reports count losses from it. The pulls' own
 * columns say it all, so it is made in SQL after the load, like the alerts.
 */
async function seedLostDecisions(db: Db): Promise<void> {
  await db.execute(sql`
    insert into ${lostDecisions} (pull_id, lost_at, owner_id, lost_category, lost_to_carrier, lost_to_premium_cents,
                                  lost_reason, policy_types, public_alias)
    select pull_id, stage_changed_at, assignee_id, lost_category, lost_to_carrier, lost_to_premium_cents,
           lost_reason, policy_types, public_alias
    from ${pulls}
    where stage = 'LOST' and not decision_carried and parent_pull_id is null and stage_changed_at is not null`);
}

/**
 * Alerts for one account in twenty, as refreshes would have raised them: a mix of kinds and of
 * open, snoozed and done, each with its account's owner (or the queue), dated a day after the
 * pull. Made in SQL from the pulls themselves (hashtext of the id), so the same book gets the
 * same alerts, and the inbox is measured on a book with an inbox's worth of them.
 */
async function seedAlerts(db: Db): Promise<void> {
  await db.execute(sql`
    insert into alerts (key, kind, pull_id, account_identifier, holder_name, headline, details,
                        before_cents, after_cents, assignee_id, status, snoozed_until, done_at, created_at)
    select 'bench:' || pull_id, (array['PREMIUM_JUMP','CANCELLED','LAPSED','COVERAGE_CUT'])[1 + h % 4],
           pull_id, account_identifier, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')),
           'Renewal premium changed', '[]'::jsonb, total_premium_cents, (total_premium_cents * 1.18)::bigint,
           assignee_id,
           case when h % 10 = 0 then 'SNOOZED' when h % 10 < 6 then 'DONE' else 'OPEN' end,
           case when h % 10 = 0 then now() + interval '3 days' end,
           case when h % 10 between 1 and 5 then coalesce(service_created_at, now()) + interval '2 days' end,
           coalesce(service_created_at, now()) + interval '1 day'
    from (select *, abs(hashtext(pull_id::text)) as h from pulls where parent_pull_id is null) p
    where h % 20 = 0
    on conflict (key) do nothing`);
}
