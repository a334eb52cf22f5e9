import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readJournal } from "./migration-history";

// Migrations are history. A database records which ones it ran, by journal time; one that ran
// a migration's earlier text never runs the new text (or, if the time moved, runs it again and
// fails). So a landed migration's file and journal entry never change: a change is a new
// migration. drizzle/landed-migrations.json pins each one; `npm run db:pin` adds new ones.

const MIGRATIONS = path.join(process.cwd(), "drizzle");
const journal = readJournal(MIGRATIONS);
const landed = JSON.parse(readFileSync(path.join(MIGRATIONS, "landed-migrations.json"), "utf8")) as {
  migrations: Record<string, { when: number; sha256: string }>;
};
const sha256Of = (tag: string) =>
  createHash("sha256")
    .update(readFileSync(path.join(MIGRATIONS, `${tag}.sql`)))
    .digest("hex");

describe("landed migrations", () => {
  it("keep their content and journal time", () => {
    for (const [tag, pinned] of Object.entries(landed.migrations)) {
      const entry = journal.entries.find((e) => e.tag === tag);
      expect(entry, `${tag} landed and is gone from the journal: write a new migration instead`).toBeDefined();
      expect(existsSync(path.join(MIGRATIONS, `${tag}.sql`)), `${tag}.sql landed and is gone`).toBe(true);
      expect(sha256Of(tag), `${tag}.sql changed after it landed: put the change in a new migration`).toBe(
        pinned.sha256,
      );
      expect(entry?.when, `${tag}'s journal time changed after it landed: databases would run it again`).toBe(
        pinned.when,
      );
    }
  });

  it("include every migration in the journal (run `npm run db:pin` once a new one is final)", () => {
    const unpinned = journal.entries.map((e) => e.tag).filter((tag) => !landed.migrations[tag]);
    expect(unpinned).toEqual([]);
  });
});

describe("the journal", () => {
  it("numbers its entries in order, each tag prefixed by its index, in time order", () => {
    journal.entries.forEach((entry, index) => {
      expect(entry.idx, entry.tag).toBe(index);
      expect(entry.tag, entry.tag).toMatch(new RegExp(`^${String(index).padStart(4, "0")}_[a-z0-9_]+$`));
      const previous = journal.entries[index - 1];
      if (previous) expect(entry.when, `${entry.tag} is not later than ${previous.tag}`).toBeGreaterThan(previous.when);
    });
  });

  it("names exactly the SQL files of the folder, each with its snapshot, chained in order", () => {
    const files = readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith(".sql"))
      .sort();
    expect(files).toEqual(journal.entries.map((e) => `${e.tag}.sql`));
    let previousId: string | null = null;
    for (const entry of journal.entries) {
      const prefix = entry.tag.slice(0, 4);
      const snapshotPath = path.join(MIGRATIONS, "meta", `${prefix}_snapshot.json`);
      expect(existsSync(snapshotPath), `${prefix}_snapshot.json`).toBe(true);
      const snapshot = JSON.parse(readFileSync(snapshotPath, "utf8")) as { id: string; prevId: string };
      if (previousId) expect(snapshot.prevId, `${prefix}_snapshot.json follows the one before`).toBe(previousId);
      previousId = snapshot.id;
    }
    const snapshots = readdirSync(path.join(MIGRATIONS, "meta")).filter((name) => name.endsWith("_snapshot.json"));
    expect(snapshots).toHaveLength(journal.entries.length);
  });
});
