import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getReport } from "@/lib/reports/queries";
import { upgradedDatabase } from "@/test/migrations";
import type { Connection } from "./connect";
import { pulls } from "./schema";

// 0016 marks the decisions a database already holds that were carried over to a refresh of
// their account, so that the reports, which now compare only marked pulls with the account's
// earlier ones, still count each of them once.

const won = "2026-05-01T12:00:00.123456Z";
const lost = "2026-05-02T12:00:00Z";
const ids = {
  original: randomUUID(),
  copy: randomUUID(),
  secondCopy: randomUUID(),
  lostOriginal: randomUUID(),
  lostCopy: randomUUID(),
  ownDecision: randomUUID(),
  otherAccount: randomUUID(),
  noAccount: randomUUID(),
  child: randomUUID(),
};
const pull = (id: string, account: string | null, stage: string, at: string | null, created: string, extra = "") =>
  `insert into pulls (pull_id, status, raw, content_hash, account_identifier, stage, stage_changed_at, won_premium_cents, created_at${extra ? ", parent_pull_id" : ""})
   values ('${id}', 'SUCCESS', '{}', 'x', ${account ? `'${account}'` : "null"}, '${stage}', ${at ? `'${at}'` : "null"},
           ${stage === "WON" ? 10_000 : "null"}, '${created}'${extra ? `, '${extra}'` : ""})`;

describe("0016: decisions carried over before the upgrade", () => {
  let connection: Connection;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ connection, close } = await upgradedDatabase(16, async (run) => {
      await run(pull(ids.original, "acct_a", "WON", won, "2026-03-01T00:00:00Z"));
      await run(pull(ids.copy, "acct_a", "WON", won, "2026-06-01T00:00:00Z"));
      await run(pull(ids.secondCopy, "acct_a", "WON", won, "2026-07-01T00:00:00Z"));
      await run(pull(ids.lostOriginal, "acct_b", "LOST", lost, "2026-03-01T00:00:00Z"));
      await run(pull(ids.lostCopy, "acct_b", "LOST", lost, "2026-06-01T00:00:00Z"));
      // A later pull of the account decided on its own, at another moment.
      await run(pull(ids.ownDecision, "acct_b", "WON", "2026-06-10T00:00:00Z", "2026-06-05T00:00:00Z"));
      // The same moment on another account, or without an account, is no copy.
      await run(pull(ids.otherAccount, "acct_c", "WON", won, "2026-06-01T00:00:00Z"));
      await run(pull(ids.noAccount, null, "WON", won, "2026-06-02T00:00:00Z"));
      // A child pull is never a report row, nor marked.
      await run(pull(ids.child, "acct_a", "WON", won, "2026-08-01T00:00:00Z", ids.original));
    }));
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it("marks exactly the copies of an earlier decision of the same account", async () => {
    const rows = await connection.db
      .select({ pullId: pulls.pullId, decisionCarried: pulls.decisionCarried })
      .from(pulls);
    const marked = new Set(rows.filter((r) => r.decisionCarried).map((r) => r.pullId));
    expect(marked).toEqual(new Set([ids.copy, ids.secondCopy, ids.lostCopy]));
  });

  it("leaves the reports' figures as they were: each carried decision counted once", async () => {
    const report = await getReport(connection.db, {});
    // original, own decision, other account, no account: four wins of 100.00.
    expect(report.won).toEqual({ count: 4, cents: 40_000 });
    expect(report.closeRatio).toMatchObject({ won: 4, lost: 1 });
  });
});
