// `npm run db:pin`: records the sha256 and journal time of every migration not yet in
// drizzle/landed-migrations.json. Run it once a new migration is final, before it lands;
// entries already there are never changed (db/landed-migrations.test.ts holds them fixed).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8"));
const pinnedPath = "drizzle/landed-migrations.json";
const pinned = JSON.parse(readFileSync(pinnedPath, "utf8"));
let added = 0;
for (const { tag, when } of journal.entries) {
  if (pinned.migrations[tag]) continue;
  const sha256 = createHash("sha256")
    .update(readFileSync(`drizzle/${tag}.sql`))
    .digest("hex");
  pinned.migrations[tag] = { when, sha256 };
  added += 1;
  console.log(`pinned ${tag}`);
}
writeFileSync(pinnedPath, `${JSON.stringify(pinned, null, 2)}\n`);
console.log(added === 0 ? "every migration was pinned already" : `${added} pinned`);
