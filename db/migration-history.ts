import { readFileSync } from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";

// drizzle's migrator runs every journal entry whose `when` is later than the `created_at` of
// the last migration a database recorded. Rewriting a landed migration gave it a new `when`,
// so a database that had applied an earlier text would run it again and stop on "relation
// already exists". Such a database is told, before migrating, that it has the current entry:
// its row keeps the hash of the text it really ran, with the current `when`, and the
// migrations after it (0013 for 0010) bring its schema to today's.
//
// Never rewrite a landed migration: db/landed-migrations.test.ts pins each one. This table
// only lists what happened before that test existed.
export const REWRITTEN_MIGRATIONS: ReadonlyArray<{ tag: string; earlierWhen: readonly number[] }> = [
  // 0f7dfca and 28e3c73; today's text is 4ca75ce's.
  { tag: "0010_bench_indexes", earlierWhen: [1795441914860, 1795442422550] },
];

type Journal = { entries: Array<{ idx: number; when: number; tag: string }> };

export function readJournal(migrationsFolder: string): Journal {
  return JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;
}

/** The statements that move a rewritten migration's earlier `when` to the current one. */
export function forwardRewrittenMigrations(migrationsFolder: string): SQL[] {
  const journal = readJournal(migrationsFolder);
  return REWRITTEN_MIGRATIONS.map(({ tag, earlierWhen }) => {
    const current = journal.entries.find((entry) => entry.tag === tag);
    if (!current) throw new Error(`The journal has no migration ${tag}`);
    const earlier = sql.join(
      earlierWhen.map((when) => sql`${String(when)}::bigint`),
      sql`, `,
    );
    return sql`update drizzle.__drizzle_migrations set created_at = ${String(current.when)}::bigint where created_at in (${earlier})`;
  });
}
