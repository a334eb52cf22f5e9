import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getLostReasons, getWonAndCloseRatio } from "@/lib/reports/queries";
import { upgradedDatabase } from "@/test/migrations";
import type { Connection } from "./connect";

// 0029 gives the reports a history of losses and fills it from what a database already holds:
// the pulls LOST by their own decision, and the losses a deal return took off its pull, read back
// from the audit trail. A loss taken back by hand, a carried copy or a won client's return adds
// none.

const ann = randomUUID();
const ids = {
  lost: randomUUID(),
  carriedCopy: randomUUID(),
  returned: randomUUID(),
  undone: randomUUID(),
  winBack: randomUUID(),
  lostTwice: randomUUID(),
  child: randomUUID(),
};
type PullSpec = { lost?: string; carried?: boolean; parent?: string; created?: string; lines?: string };
const pull = (id: string, account: string, stage: string, at: string, spec: PullSpec = {}) =>
  `insert into pulls (pull_id, status, raw, content_hash, account_identifier, stage, stage_changed_at, assignee_id,
                      lost_category, lost_to_carrier, lost_to_premium_cents, decision_carried, parent_pull_id, created_at, policy_types)
   values ('${id}', 'SUCCESS', '{}', 'x', '${account}', '${stage}', '${at}', '${ann}', ${spec.lost ?? "null, null, null"},
           ${spec.carried ? "true" : "false"}, ${spec.parent ? `'${spec.parent}'` : "null"},
           '${spec.created ?? "2026-01-01T00:00:00Z"}', '{${spec.lines ?? ""}}')`;
const stageChanged = (pullId: string, at: string, details: Record<string, unknown>) =>
  `insert into audit_events (at, actor_id, actor_name, action, pull_id, details)
   values ('${at}', '${ann}', 'Ann Agent', 'STAGE_CHANGED', '${pullId}', '${JSON.stringify(details)}')`;
const dealReturn = (pullId: string, kind: string, at: string, category: string | null) =>
  `insert into deal_returns (key, kind, pull_id, previous_assignee_id, assignee_id, lost_category, headline, returned_at)
   values ('${kind}:${pullId}:${at}', '${kind}', '${pullId}', '${ann}', '${ann}', ${category ? `'${category}'` : "null"},
           'came back', '${at}')`;

describe("0029: the losses a database holds before the upgrade", () => {
  let connection: Connection;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ connection, close } = await upgradedDatabase(28, async (run) => {
      await run(
        `insert into users (id, email, name, role, password_hash) values ('${ann}', 'ann@agency.test', 'Ann Agent', 'AGENT', 'x')`,
      );
      // Lost in March, and a refresh of the account that carried the loss: one loss.
      const priceToGeico = "'PRICE', 'GEICO', 148000";
      await run(pull(ids.lost, "acct_lost", "LOST", "2026-03-10T12:00:00Z", { lost: priceToGeico }));
      await run(
        pull(ids.carriedCopy, "acct_lost", "LOST", "2026-03-10T12:00:00Z", {
          lost: priceToGeico,
          carried: true,
          created: "2026-06-01T00:00:00Z",
        }),
      );
      // Lost in April, came back in September: WORKING now, the loss in the audit trail.
      await run(pull(ids.returned, "acct_returned", "WORKING", "2026-09-01T00:00:00Z", { lines: "AUTO" }));
      await run(
        stageChanged(ids.returned, "2026-04-05T12:00:00Z", {
          from: "WORKING",
          to: "LOST",
          lostCategory: "COVERAGE",
          lostToCarrier: "Allstate",
          lostToPremiumCents: 90_000,
        }),
      );
      await run(dealReturn(ids.returned, "RECYCLED", "2026-09-01T00:00:00Z", "COVERAGE"));
      // Lost in May and taken back the next day: no loss.
      await run(pull(ids.undone, "acct_undone", "WORKING", "2026-05-02T12:00:00Z"));
      await run(
        stageChanged(ids.undone, "2026-05-01T12:00:00Z", { from: "WORKING", to: "LOST", lostCategory: "PRICE" }),
      );
      await run(stageChanged(ids.undone, "2026-05-02T12:00:00Z", { from: "LOST", to: "WORKING" }));
      // A won client whose refresh showed the policy gone: no loss of the agency's.
      await run(pull(ids.winBack, "acct_win_back", "WORKING", "2026-06-10T00:00:00Z"));
      await run(
        stageChanged(ids.winBack, "2026-06-01T12:00:00Z", { from: "WORKING", to: "WON", wonPremiumCents: 50_000 }),
      );
      await run(dealReturn(ids.winBack, "WIN_BACK", "2026-06-10T00:00:00Z", null));
      // Lost in February, came back in August, lost again in October: two losses.
      await run(
        pull(ids.lostTwice, "acct_twice", "LOST", "2026-10-01T12:00:00Z", { lost: "'NO_CONTACT', null, null" }),
      );
      await run(
        stageChanged(ids.lostTwice, "2026-02-01T12:00:00Z", { from: "WORKING", to: "LOST", lostCategory: "SERVICE" }),
      );
      await run(dealReturn(ids.lostTwice, "RECYCLED", "2026-08-01T00:00:00Z", "SERVICE"));
      await run(
        stageChanged(ids.lostTwice, "2026-10-01T12:00:00Z", {
          from: "WORKING",
          to: "LOST",
          lostCategory: "NO_CONTACT",
        }),
      );
      // A child pull is never a report row.
      await run(
        pull(ids.child, "acct_child", "LOST", "2026-03-10T12:00:00Z", {
          lost: "'PRICE', null, null",
          parent: ids.lost,
        }),
      );
    }));
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  const reasons = async (filter: { from?: string; to?: string; line?: string } = {}) =>
    (await getLostReasons(connection.db, filter))
      .filter((r) => r.dimension === "reason")
      .map(({ key, count, lostToCents }) => ({ key, count, lostToCents }));

  it("counts every loss once, in the period it was decided, with its reason", async () => {
    expect(await reasons()).toEqual([
      { key: "COVERAGE", count: 1, lostToCents: 90_000 },
      { key: "NO_CONTACT", count: 1, lostToCents: 0 },
      { key: "PRICE", count: 1, lostToCents: 148_000 },
      { key: "SERVICE", count: 1, lostToCents: 0 },
    ]);
    expect(await reasons({ from: "2026-04-01", to: "2026-04-30" })).toEqual([
      { key: "COVERAGE", count: 1, lostToCents: 90_000 },
    ]);
    expect(await reasons({ from: "2026-02-01", to: "2026-02-28" })).toEqual([
      { key: "SERVICE", count: 1, lostToCents: 0 },
    ]);
    // With the lines of the pull it was lost on.
    expect(await reasons({ line: "AUTO" })).toEqual([{ key: "COVERAGE", count: 1, lostToCents: 90_000 }]);
    // The months of the returns and of the loss taken back hold none.
    expect(await reasons({ from: "2026-05-01", to: "2026-09-30" })).toEqual([]);
    const agents = (await getLostReasons(connection.db, {})).filter((r) => r.dimension === "agent");
    expect(agents.map((r) => [r.label, r.count])).toEqual([["Ann Agent", 4]]);
    expect((await getWonAndCloseRatio(connection.db, { agent: ann })).closeRatio).toMatchObject({ lost: 4 });
  });
});
