import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { copyInto, withoutTriggers } from "./bulk-load";
import { copyText, escapeCopy, type CopyPlan } from "./copy-rows";

// A COPY the server refuses must fail the seed, not hang it: postgres.js 3.4.9 dropped the
// error of a refused COPY FROM (the ended stream waited forever for a CommandComplete that never
// comes), and a million-pull seed that met a duplicate id sat in an aborted transaction instead
// of stopping. `patches/postgres+3.4.9.patch` hands the error to the stream.

const onPostgres = Boolean(process.env.DATABASE_URL);
const plan: CopyPlan = { table: "copy_refusal", columns: ["id"], keys: ["id"], encoders: [] };

describe.skipIf(!onPostgres)("bulk load on PostgreSQL", () => {
  it("rejects a COPY that breaks a unique key, and the session can roll back and go on", async () => {
    const client = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
    const session = await client.reserve();
    try {
      await session.unsafe("create temp table copy_refusal (id int primary key)");
      await session.unsafe("begin");
      await expect(copyInto(session, plan, new TextEncoder().encode("1\n2\n1\n"), false)).rejects.toThrow(
        /duplicate key value violates unique constraint/,
      );
      await session.unsafe("rollback");
      await copyInto(session, plan, new TextEncoder().encode("1\n2\n3\n"), false);
      expect(await session.unsafe("select count(*)::int as n from copy_refusal")).toEqual([{ n: 3 }]);
    } finally {
      session.release();
      await client.end();
    }
  }, 20_000);

  it("stores text with backslashes, newlines, carriage returns and tabs exactly as it was", async () => {
    const client = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
    const session = await client.reserve();
    const values = [
      String.raw`{"a":"quote \" and \\ backslash \u00e9"}`,
      "line one\nline two\r\n\ttabbed \\N not null",
      "\\\n\t\r",
      "plain",
      "",
    ];
    const text: CopyPlan = {
      table: "copy_text",
      columns: ["n", "value"],
      keys: ["n", "value"],
      encoders: [(row) => String(row.n), (row) => escapeCopy(String(row.value))],
    };
    try {
      await session.unsafe("create temp table copy_text (n int primary key, value text not null)");
      const rows = values.map((value, n) => ({ n, value }));
      await copyInto(session, text, new TextEncoder().encode(copyText(text, rows)), false);
      const stored = await session.unsafe<Array<{ value: string }>>("select value from copy_text order by n");
      expect(stored.map((r) => r.value)).toEqual(values);
    } finally {
      session.release();
      await client.end();
    }
  }, 20_000);

  it("fires no trigger during the load, and fires them again once it is done", async () => {
    const client = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
    const session = await client.reserve();
    try {
      await session.unsafe(`
        create temp table fired (n int);
        create temp table watched (id int primary key);
        create function pg_temp.note() returns trigger language plpgsql as
          $$ begin insert into fired values (new.id); return new; end $$;
        create trigger note after insert on watched for each row execute function pg_temp.note();`);
      await withoutTriggers(session, () =>
        copyInto(session, { ...plan, table: "watched" }, new TextEncoder().encode("1\n2\n"), false),
      );
      expect(await session.unsafe("select count(*)::int as n from fired")).toEqual([{ n: 0 }]);
      await session.unsafe("insert into watched values (3)");
      expect(await session.unsafe("select n from fired")).toEqual([{ n: 3 }]);
      // A load that fails leaves the session firing them too.
      await expect(withoutTriggers(session, () => session.unsafe("insert into watched values (1)"))).rejects.toThrow();
      await session.unsafe("insert into watched values (4)");
      expect(await session.unsafe("select n from fired order by n")).toEqual([{ n: 3 }, { n: 4 }]);
    } finally {
      session.release();
      await client.end();
    }
  }, 20_000);
});
