import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rewritableHistoryTables, type Connection } from "./connect";

// The audit trail must survive the app itself: migrations run as the tables' owner
// (DATABASE_MIGRATION_URL), the app as a role that may only read and append to the trail. A
// trigger stops UPDATE and DELETE, but TRUNCATE bypasses triggers and an owner may drop them;
// here the app's role is shown unable to do either, while the app's ordinary work goes on.

const onPostgres = Boolean(process.env.DATABASE_URL);
const suffix = randomBytes(4).toString("hex");
const databaseName = `coverdesk_roles_${suffix}`;
const appRole = `coverdesk_app_${suffix}`;

let superuser: postgres.Sql;
let app: Connection;
let asApp: postgres.Sql;

function urlFor(role: string | null): string {
  const url = new URL(process.env.DATABASE_URL ?? "");
  url.pathname = `/${databaseName}`;
  if (role) url.username = role;
  return url.toString();
}

beforeAll(async () => {
  if (!onPostgres) return;
  superuser = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
  await superuser.unsafe(`create database ${databaseName}`);
  await superuser.unsafe(`create role ${appRole} login`); // the documented set-up: a login role that owns nothing
  app = await openDatabase({ kind: "postgres", url: urlFor(appRole), migrationUrl: urlFor(null), maxConnections: 2 });
  asApp = postgres(urlFor(appRole), { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  if (!onPostgres) return;
  await asApp?.end({ timeout: 1 });
  await app?.close();
  await superuser.unsafe(`drop database if exists ${databaseName} with (force)`);
  await superuser.unsafe(`drop role if exists ${appRole}`);
  await superuser.end({ timeout: 1 });
});

describe.skipIf(!onPostgres)("the app's database role (PostgreSQL only: the embedded database has one role)", () => {
  it("does the app's ordinary work: reads, writes, and appends to the audit trail", async () => {
    await asApp`insert into users (email, name, role, password_hash) values ('ana@agency.test', 'Ana', 'AGENT', 'x')`;
    await asApp`update users set name = 'Ana Ruiz' where email = 'ana@agency.test'`;
    await asApp`insert into audit_events (action, details) values ('USER_CREATED', '{}')`;
    const trail = await asApp`select action from audit_events`;
    expect(trail.map((row) => row.action)).toEqual(["USER_CREATED"]);
  });

  it("folds the X-date page's pending changes into its sums, as the page does on each visit", async () => {
    // What a write to policy_xdates appends (its statement trigger runs as the writer), then the fold.
    await asApp`insert into xdate_sum_deltas (x_date, office_id, assigned, stage, count, premium_cents, priced)
                values (current_date, null, false, 'WORKING', 1, 120400, 1)`;
    expect((await asApp`select xdate_sums_fold() as written`)[0]?.written).toBe(1);
    expect(await asApp`select count, premium_cents::int as premium from xdate_sums`).toEqual([
      { count: 1, premium: 120400 },
    ]);
    await asApp`insert into xdate_sum_deltas (x_date, office_id, assigned, stage, count, premium_cents, priced)
                values (current_date, null, false, 'WORKING', -1, -120400, -1)`;
    await asApp`select xdate_sums_fold()`;
    expect(await asApp`select count(*)::int as n from xdate_sums`).toEqual([{ n: 0 }]);
  });

  it("cannot edit, empty or unprotect the audit trail", async () => {
    const refused = async (statement: string) => {
      const error = await asApp.unsafe(statement).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      );
      return error ? `${error.code}: ${error.message}` : "allowed";
    };
    expect(await refused("update audit_events set action = 'FORGED'")).toMatch(/^42501: permission denied/);
    expect(await refused("delete from audit_events")).toMatch(/^42501: permission denied/);
    expect(await refused("truncate audit_events")).toMatch(/^42501: permission denied/);
    expect(await refused("drop trigger audit_events_no_update_or_delete on audit_events")).toMatch(
      /^42501: must be owner/,
    );
    expect(await refused("alter table audit_events disable trigger all")).toMatch(/^42501: must be owner/);
    expect(await refused("drop table audit_events")).toMatch(/^42501: must be owner/);
    const [count] = await asApp`select count(*)::int as n from audit_events`;
    expect(count?.n).toBe(1);
  });

  it("cannot edit, empty, detach or drop a month of the trail, and makes months only through the owner's function", async () => {
    const refused = async (statement: string) => {
      const error = await asApp.unsafe(statement).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      );
      return error ? `${error.code}: ${error.message}` : "allowed";
    };
    const [month] = await asApp`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'audit_events'::regclass and c.relname <> 'audit_events_default' limit 1`;
    const name = String(month?.name);
    expect(name).toMatch(/^audit_events_\d{4}_\d{2}$/);
    // Rows a month of its own holds are guarded by that table's privileges, not the trail's: none granted.
    for (const partition of [name, "audit_events_default"]) {
      expect(await refused(`update ${partition} set action = 'FORGED'`)).toMatch(/^42501: permission denied/);
      expect(await refused(`delete from ${partition}`)).toMatch(/^42501: permission denied/);
      expect(await refused(`truncate ${partition}`)).toMatch(/^42501: permission denied/);
      expect(await refused(`drop table ${partition}`)).toMatch(/^42501: must be owner/);
      expect(await refused(`alter table audit_events detach partition ${partition}`)).toMatch(/^42501: must be owner/);
    }
    expect(
      await refused(
        "create table audit_events_2000_01 partition of audit_events for values from ('2000-01-01') to ('2000-02-01')",
      ),
    ).toMatch(/^42501: (must be owner|permission denied)/);
    // The owner's function makes a month, which the app's role then cannot touch directly either.
    expect(await asApp`select create_month_partition('audit_events', '2000-01-01') as made`).toEqual([{ made: true }]);
    expect(await refused("truncate audit_events_2000_01")).toMatch(/^42501: permission denied/);
    // Disposal, through its function, still may not go under five years.
    await asApp`select dispose_audit_events(now() + interval '1 day', '{}'::uuid[], 100)`;
    const [count] = await asApp`select count(*)::int as n from audit_events`;
    expect(count?.n).toBe(1);
  });

  it("cannot edit, empty or unprotect the DPPA redisclosure log either, but appends to it", async () => {
    await asApp`insert into redisclosures (pull_ids, pull_count, data_kinds, channel, recipient, purpose)
                values (array['7d0f8f8e-2c51-4b6e-9a57-3f6f5d1f0a11']::uuid[], 1, array['driver data'], 'look-up answer', 'internal use', 'INSURANCE_UNDERWRITING')`;
    const refused = async (statement: string) => {
      const error = await asApp.unsafe(statement).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      );
      return error ? `${error.code}: ${error.message}` : "allowed";
    };
    expect(await refused("update redisclosures set recipient = 'nobody'")).toMatch(/^42501: permission denied/);
    expect(await refused("delete from redisclosures")).toMatch(/^42501: permission denied/);
    expect(await refused("truncate redisclosures")).toMatch(/^42501: permission denied/);
    expect(await refused("drop trigger redisclosures_no_update_or_delete on redisclosures")).toMatch(
      /^42501: must be owner/,
    );
    expect(await asApp`select recipient from redisclosures`).toEqual([{ recipient: "internal use" }]);
  });

  it("is what production starts with; the owner's role, which could rewrite history, is refused", async () => {
    // The app's own role: nothing to refuse (lib/startup.ts starts).
    expect(await rewritableHistoryTables(app.db)).toEqual([]);
    // DATABASE_URL naming the tables' owner: both tables of history could be rewritten, so the start is refused.
    const asOwner = await openDatabase({ kind: "postgres", url: urlFor(null), maxConnections: 1 });
    try {
      expect(await rewritableHistoryTables(asOwner.db)).toEqual(["audit_events", "redisclosures"]);
      const { refuseRewritableHistory } = await import("@/lib/startup");
      await expect(refuseRewritableHistory(asOwner)).rejects.toThrow(
        /the role of DATABASE_URL can edit or delete the rows of audit_events and redisclosures/,
      );
      await expect(refuseRewritableHistory(app)).resolves.toBeUndefined();
    } finally {
      await asOwner.close();
    }
    // A role given back UPDATE on the trail (a hand-made grant) is refused as well.
    const owner = postgres(urlFor(null), { max: 1, onnotice: () => {} });
    await owner.unsafe(`grant update on audit_events to ${appRole}`);
    try {
      expect(await rewritableHistoryTables(app.db)).toEqual(["audit_events"]);
    } finally {
      await owner.unsafe(`revoke update on audit_events from ${appRole}`);
      await owner.end({ timeout: 1 });
    }
  });

  it("does not own the tables, so the grants hold after a restart's migration", async () => {
    const again = await openDatabase({
      kind: "postgres",
      url: urlFor(appRole),
      migrationUrl: urlFor(null),
      maxConnections: 1,
    });
    await again.close();
    const owners = await asApp`select distinct tableowner from pg_tables where schemaname = 'public'`;
    expect(owners.map((row) => row.tableowner)).not.toContain(appRole);
    expect(await asApp`select count(*)::int as n from pulls`).toEqual([{ n: 0 }]);
  });

  it("redacts an erased consumer's rows only through the owner's function, and only to an empty row", async () => {
    await asApp`insert into audit_events (action, details) values ('CSV_EXPORTED', '{"filters": {"q": "lois.lane@planet.test"}}')`;
    const direct = await asApp
      .unsafe(`update audit_events set details = '{"redacted": true}'::jsonb, pull_id = null`)
      .then(
        () => "allowed",
        (e: { code?: string }) => e.code,
      );
    expect(direct).toBe("42501");
    const [redacted] = await asApp`select redact_audit_events('{}'::uuid[], array['lois.lane@planet.test']) as n`;
    expect(redacted?.n).toBe(1);
    const rows = await asApp`select action, details from audit_events order by id`;
    expect(rows.map((r) => [r.action, r.details])).toEqual([
      ["USER_CREATED", {}],
      ["CSV_EXPORTED", { redacted: true }],
    ]);
    // A short text would blank the trail wholesale: refused.
    await expect(asApp`select redact_audit_events('{}'::uuid[], array['a'])`).rejects.toThrow(/shorter than 6/);
  });
});

describe("the embedded database (development)", () => {
  it("needs no roles: its one role owns everything, and the start's check passes it by", async () => {
    const embedded = await openDatabase({ kind: "pglite", dir: null });
    try {
      const { refuseRewritableHistory } = await import("@/lib/startup");
      await expect(refuseRewritableHistory(embedded)).resolves.toBeUndefined();
    } finally {
      await embedded.close();
    }
  });
});

describe.skipIf(!onPostgres)("disposal of old audit rows (PostgreSQL only)", () => {
  it("goes through dispose_audit_events only, and never below five years", async () => {
    await asApp`insert into audit_events (action, at, details) values ('CSV_EXPORTED', now() - interval '100 months', '{}'), ('CSV_EXPORTED', now() - interval '59 months', '{}')`;
    const refused = await asApp`delete from audit_events where at < now() - interval '99 months'`.then(
      () => "allowed",
      (e: unknown) => String((e as { code?: string }).code),
    );
    expect(refused).toBe("42501");
    const [disposed] = await asApp`select dispose_audit_events(now(), '{}'::uuid[], 100) as n`;
    expect(disposed?.n).toBe(1);
    // The 59-month row stays (other tests' rows here are recent).
    const [left] =
      await asApp`select count(*)::int as n from audit_events where action = 'CSV_EXPORTED' and at < now() - interval '50 months'`;
    expect(left?.n).toBe(1);
  });
});
