import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Connection } from "./connect";

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
