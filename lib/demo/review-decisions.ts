import "server-only";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db/types";
import { findingDecisions, pulls } from "@/db/schema";
import { reviewHousehold } from "@/lib/review/coverage";
import { dayOfInstant, decideFinding, type FindingDecision } from "@/lib/review/decisions";
import { getReviewSettings } from "@/lib/review/review-rules";
import { parsePull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";

// The demo's errors-and-omissions record: on a few recent accounts the agent who has them went
// through the coverage review with the client a few days before the end of the history, so the
// pull page shows decisions (declined, with the client's reasons; accepted) beside the findings
// the sandbox's cover produces by itself, and the client summary lists what was declined.
// Through the real command, dated; run again, it finds decisions already there and adds none.

const DAY = 86_400_000;

const SCRIPT: Array<{ decision: FindingDecision; note: string }> = [
  {
    decision: "DECLINED",
    note: "Went through it on the phone: the client keeps the current limit to hold the premium down, and knows what a serious claim could cost them.",
  },
  { decision: "ACCEPTED", note: "Client agreed; quote for the higher limit sent by email." },
  {
    decision: "DECLINED",
    note: "Client says they will revisit at renewal; summary PDF sent so they have it in writing.",
  },
];

export async function recordDemoDecisions(
  db: Db,
  { until, staff, manager }: { until: Date; staff: Array<Actor & { isActive: boolean }>; manager: Actor },
): Promise<number> {
  const [already] = await db.select({ id: findingDecisions.id }).from(findingDecisions).limit(1);
  if (already) return 0;
  const at = new Date(until.getTime() - 3 * DAY);
  const settings = await getReviewSettings(db);
  const candidates = await db
    .select({ pullId: pulls.pullId, raw: pulls.raw, assigneeId: pulls.assigneeId })
    .from(pulls)
    .where(
      and(
        eq(pulls.status, "SUCCESS"),
        eq(pulls.type, "PULLING_DATA"),
        isNull(pulls.parentPullId),
        isNotNull(pulls.assigneeId),
      ),
    )
    .orderBy(desc(pulls.serviceCreatedAt), pulls.pullId)
    .limit(60);
  let recorded = 0;
  for (const candidate of candidates) {
    const step = SCRIPT[recorded];
    if (!step) break;
    const parsed = parsePull(candidate.raw);
    if (!parsed.ok) continue;
    // A gap about the cover itself (not a date), so it reads the same on the day the demo is opened.
    const gap = reviewHousehold(parsed.pull, settings, dayOfInstant(at)).find(
      (f) => f.severity === "gap" && !f.rule.startsWith("policy-"),
    );
    if (!gap) continue;
    const owner = staff.find((s) => s.id === candidate.assigneeId && s.isActive) ?? manager;
    const result = await decideFinding(
      db,
      owner,
      { pullId: candidate.pullId, findingKey: gap.key, decision: step.decision, note: step.note },
      new Date(at.getTime() + recorded * 3_600_000),
    );
    if (result.ok) recorded++;
  }
  return recorded;
}
