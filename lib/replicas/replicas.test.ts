import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/db/connect";
import { auditEvents, userSessions, users } from "@/db/schema";
import type { Db } from "@/db/types";
import { streamCrossSellCsv } from "@/lib/cross-sell/csv";
import { storePull } from "@/lib/ingest/store-pull";
import { loadReportsPage } from "@/lib/loaders/reports";
import { generatePulls, type SandboxPull } from "@/sandbox/data/pulls";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { currentWalPosition, OWN_WRITE_COOKIE } from "./own-writes";
import { chooseRead, readFrom } from "./read-routing";
import { getReplicaLag } from "./replica-lag";
import { openReplicaSet, type ReplicaSet } from "./replica-set";
import { walOffset } from "./wal-position";

// Read replicas against a real streaming replica of the test PostgreSQL (.ci/run starts one with
// pg_basebackup on port 5433 and names it in TEST_REPLICA_URL). The test database is created on
// the primary and reaches the replica by replication, like everything else. Lag is made by
// pausing the replica's replay (pg_wal_replay_pause), so every case that pauses lives in this
// one file, one case after another.

const primaryUrl = process.env.DATABASE_URL;
const replicaServerUrl = process.env.TEST_REPLICA_URL;

// The request's cookies, for the glue that reads and writes them (next/headers outside a request).
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
  headers: async () => new Headers(),
}));

// The signed-in user next-auth would decode from the session cookie (the only stand-in of the guard).
let session: { user: { id: string }; sessionId: string } | null = null;
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => session,
}));

let database: TestDatabase;
let replicaAdmin: postgres.Sql;
let replicaUrl = "";
let set: ReplicaSet;
const logged: string[] = [];
let book: SandboxPull[] = [];

async function primaryPosition(): Promise<bigint> {
  const offset = walOffset(await currentWalPosition(database.db));
  if (offset === null) throw new Error("no WAL position");
  return offset;
}

/** Waits until the replica has replayed the primary up to `position`. */
async function replayedTo(position: bigint): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await replicaAdmin<{ replayed: string }[]>`select pg_last_wal_replay_lsn()::text as replayed`;
    const replayed = row ? walOffset(row.replayed) : null;
    if (replayed !== null && replayed >= position) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the replica did not catch up within 10 s");
}

async function pauseReplay(): Promise<void> {
  await replicaAdmin`select pg_wal_replay_pause()`;
  for (let i = 0; i < 100; i++) {
    const [row] = await replicaAdmin<{ state: string }[]>`select pg_get_wal_replay_pause_state() as state`;
    if (row?.state === "paused") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the replica's replay did not pause");
}

const resumeReplay = async () => {
  await replicaAdmin`select pg_wal_replay_resume()`;
};

const pipelineOf = async (db: Db) => (await loadReportsPage(db, {})).report.pipeline.count;
const inRecovery = async (db: Db) =>
  (await queryRows<{ r: boolean }>(db, sql`select pg_is_in_recovery() as r`))[0]?.r === true;

describe.skipIf(!primaryUrl || !replicaServerUrl)(
  "read replicas (needs DATABASE_URL and TEST_REPLICA_URL, a streaming replica of it: .ci/run starts one)",
  () => {
    beforeAll(async () => {
      database = await createTestDatabase();
      replicaAdmin = postgres(replicaServerUrl ?? "", { max: 1, onnotice: () => {} });
      const url = new URL(replicaServerUrl ?? "");
      url.pathname = `/${database.name}`;
      replicaUrl = url.toString();
      book = generatePulls(91, 14, new Date()).filter((p) => p.status === "SUCCESS" && !p.parent_pull_id);
      if (book.length < 5) throw new Error("the generated book is too small");
      for (const pull of book.slice(0, 2)) await storePull(database.db, pull);
      // The database, its migrations and the first pulls reach the replica by replication.
      await replayedTo(await primaryPosition());
      set = openReplicaSet([replicaUrl], { log: (line) => logged.push(line) });
    });

    afterAll(async () => {
      await resumeReplay().catch(() => {}); // never leave the shared replica paused
      await set?.close();
      await replicaAdmin?.end();
      await database?.close();
    });

    it("serves a report from the replica: the connection is one in recovery, and the figures are the primary's", async () => {
      const choice = await chooseRead(database.db, set, null);
      expect(choice.served).toBe("replica");
      expect(await inRecovery(choice.db)).toBe(true);
      expect(await inRecovery(database.db)).toBe(false);
      expect(await pipelineOf(choice.db)).toBe(await pipelineOf(database.db));
      // A CSV export's audit line is a write: it goes to the primary through the same database.
      const served = await readFrom(database.db, set, null, async (db, from) => {
        await db.execute(sql`select 1`);
        return from;
      });
      expect(served).toBe("replica");
    });

    it("streams a list's CSV from the replica and writes its audit line on the primary, once", async () => {
      const [admin] = await database.db
        .insert(users)
        .values({ email: "exporter@replicas.test", name: "Exporter", role: "ADMIN", passwordHash: "x" })
        .returning({ id: users.id });
      const actor = { id: admin?.id ?? "", name: "Exporter", role: "ADMIN" as const };
      // The stream holds its cursor on the replica's own connection; the audit line goes to the primary.
      const choice = await chooseRead(database.db, set, null);
      if (choice.served !== "replica") throw new Error("the replica should serve this read");
      const csv = await new Response(streamCrossSellCsv(choice.replica.db, database.db, actor, {})).text();
      expect(await inRecovery(choice.replica.db)).toBe(true);
      expect(csv.split("\r\n")[0]).toMatch(/^name,email,/);
      const audit = await database.db
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.actorId, actor.id));
      expect(audit).toEqual([{ action: "CSV_EXPORTED" }]);
    });

    it("keeps a user's reads on the primary until the replica has replayed their write; others read the replica meanwhile", async () => {
      const before = await pipelineOf(database.db);
      await pauseReplay();
      try {
        // A user's write, and the position the action guard would put in their cookie.
        await storePull(database.db, book[2] as SandboxPull);
        const written = await primaryPosition();
        expect(await pipelineOf(database.db)).toBe(before + 1);

        const writer = await readFrom(database.db, set, written, async (db, from) => ({
          from,
          count: await pipelineOf(db),
        }));
        expect(writer).toEqual({ from: "primary", count: before + 1 });

        // Another user, with no write of their own to wait for, reads the replica, a write behind.
        const other = await readFrom(database.db, set, null, async (db, from) => ({
          from,
          count: await pipelineOf(db),
        }));
        expect(other).toEqual({ from: "replica", count: before });

        // The lag the admin's page shows: behind by bytes, and reachable.
        const [lag] = await getReplicaLag(database.db, set);
        expect(lag).toMatchObject({ reachable: true, inRecovery: true });
        expect(lag?.reachable && lag.lagBytes).toBeGreaterThan(0);

        await resumeReplay();
        await replayedTo(written);
        await new Promise((resolve) => setTimeout(resolve, 250)); // past the cached replay position
        const caughtUp = await readFrom(database.db, set, written, async (db, from) => ({
          from,
          count: await pipelineOf(db),
        }));
        expect(caughtUp).toEqual({ from: "replica", count: before + 1 });
      } finally {
        await resumeReplay();
      }
    });

    it("carries the position of a write in a cookie from the action guard to the next read (withReadDb)", async () => {
      const saved = { replicas: process.env.DATABASE_REPLICA_URLS };
      process.env.DATABASE_REPLICA_URLS = replicaUrl;
      // The app's database is this test's (as the other guard tests do).
      (globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
        connection: Promise.resolve(database),
      };
      // A fresh module graph: the environment is parsed once per graph, and the replica's
      // address is known only now that the test database exists.
      vi.resetModules();
      const { withReadDb, closeReplicaSet } = await import("@/lib/database");
      const { guardedAction, noInput } = await import("@/lib/auth/action-guard");
      const [user] = await database.db
        .insert(users)
        .values({ email: "writer@replicas.test", name: "Writer", role: "AGENT", passwordHash: "x" })
        .returning({ id: users.id });
      const [row] = await database.db
        .insert(userSessions)
        .values({ userId: user?.id ?? "", expiresAt: new Date(Date.now() + 3_600_000) })
        .returning({ id: userSessions.id });
      session = { user: { id: user?.id ?? "" }, sessionId: row?.id ?? "" };
      // A server action that writes, behind the one guard every action passes.
      const storeAction = guardedAction(
        "signed-in",
        noInput,
        () => "refused",
        async ({ db }) => {
          await storePull(db, book[3] as SandboxPull);
          return "stored";
        },
      );
      try {
        jar.clear();
        expect(await withReadDb(inRecovery)).toBe(true); // no write yet: the replica

        await pauseReplay();
        expect(await storeAction(new FormData())).toBe("stored");
        const cookie = jar.get(OWN_WRITE_COOKIE) ?? "";
        expect(walOffset(cookie)).not.toBeNull();
        expect(await withReadDb(inRecovery)).toBe(false); // behind this write: the primary

        // A cookie that is not a WAL position is ignored, not trusted nor an error.
        jar.set(OWN_WRITE_COOKIE, "'; drop table pulls; --");
        expect(await withReadDb(inRecovery)).toBe(true);

        // A route handler's write (not a GET) is remembered too; a GET changes nothing.
        jar.clear();
        const { withUser } = await import("@/lib/auth/route-guard");
        const route = withUser("signed-in", async () => new Response("ok"));
        await route(new Request("http://localhost/api/probe"));
        expect(jar.has(OWN_WRITE_COOKIE)).toBe(false);
        await route(new Request("http://localhost/api/probe", { method: "POST" }));
        expect(walOffset(jar.get(OWN_WRITE_COOKIE) ?? "")).not.toBeNull();

        jar.set(OWN_WRITE_COOKIE, cookie);
        await resumeReplay();
        await replayedTo(walOffset(cookie) ?? 0n);
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await withReadDb(inRecovery)).toBe(true);
      } finally {
        await resumeReplay();
        await closeReplicaSet();
        if (saved.replicas === undefined) delete process.env.DATABASE_REPLICA_URLS;
        else process.env.DATABASE_REPLICA_URLS = saved.replicas;
      }
    });

    it("reads nobody's reports from a replica further behind than the bound, until it catches up", async () => {
      const lines: string[] = [];
      const bounded = openReplicaSet([replicaUrl], { log: (line) => lines.push(line), maxLagSeconds: 1 });
      try {
        await pauseReplay();
        await storePull(database.db, book[4] as SandboxPull);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        // A reader with no write of their own: the replica would show them a report 2.5 s old.
        expect((await chooseRead(database.db, bounded, null)).served).toBe("primary");
        expect(lines.join("\n")).toMatch(/s behind \(over 1 s\): reads go to the primary/);
        await resumeReplay();
        await replayedTo(await primaryPosition());
        let served = "primary";
        for (let i = 0; i < 30 && served === "primary"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          served = (await chooseRead(database.db, bounded, null)).served;
        }
        expect(served).toBe("replica");
        expect(lines.join("\n")).toMatch(/has caught up/);
      } finally {
        await resumeReplay();
        await bounded.close();
      }
    });

    it("reads the primary when a replica cannot be reached, says so in the log, and shows it unreachable", async () => {
      const lines: string[] = [];
      const gone = openReplicaSet(["postgres://postgres@127.0.0.1:9/nowhere"], {
        log: (line) => lines.push(line),
        connectTimeoutSeconds: 1,
      });
      try {
        const read = await readFrom(database.db, gone, null, async (db, from) => ({
          from,
          count: await pipelineOf(db),
        }));
        expect(read).toEqual({ from: "primary", count: await pipelineOf(database.db) });
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/127\.0\.0\.1:9\/nowhere set aside, reads go to the primary/);
        // Set aside: the next read does not wait for it again, nor logs it twice.
        await readFrom(database.db, gone, null, async () => null);
        expect(lines).toHaveLength(1);
        const [lag] = await getReplicaLag(database.db, gone);
        expect(lag).toMatchObject({ label: "127.0.0.1:9/nowhere", reachable: false });
      } finally {
        await gone.close();
      }
    });

    it("runs a read again on the primary when the replica goes away in the middle of it", async () => {
      const lines: string[] = [];
      const flaky = openReplicaSet([replicaUrl], { log: (line) => lines.push(line) });
      const [replica] = flaky.replicas;
      if (!replica) throw new Error("no replica");
      expect(await flaky.replayedOffset(replica)).not.toBeNull();
      await replica.close(); // its pool ends: the next query on it fails
      const read = await readFrom(database.db, flaky, null, async (db, from) => ({
        from,
        count: await pipelineOf(db),
      }));
      expect(read).toEqual({ from: "primary", count: await pipelineOf(database.db) });
      expect(lines.join("\n")).toMatch(/set aside, reads go to the primary/);
      await flaky.close();
    });
  },
);
