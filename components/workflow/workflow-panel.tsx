import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { can, canOnPull } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { formatCents, humanize } from "@/lib/format";
import type { PullWorkflow } from "@/lib/pulls/queries";
import { lostSummary } from "@/lib/workflow/lost-reasons";
import type { ArchiveState } from "@/lib/loaders/pull-page";
import { ArchiveForm } from "./archive-form";
import { AssignForm, ClaimButton } from "./assign-form";
import { StageForm } from "./stage-form";
import { RelativeTime } from "@/components/ui/relative-time";

// The agency's own state of a pull (stage, won premium, assignee) with the controls the viewer
// may use. The permission table decides on the server; hidden controls are a courtesy only.

const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

export function WorkflowPanel({
  user,
  pullId,
  workflow,
  people,
  archive,
}: {
  user: Actor;
  pullId: string;
  workflow: PullWorkflow;
  people: Array<{ id: string; name: string }>;
  archive: ArchiveState;
}) {
  const canSetStage = canOnPull(user, "pulls:set-stage", workflow);
  const canAssign = can(user, "pulls:assign");
  const canClaim = !canAssign && canOnPull(user, "pulls:claim", workflow);
  return (
    <section aria-labelledby="workflow-title" className={cn(CARD_CLASS, "p-5")} data-testid="workflow-panel">
      <h2 id="workflow-title" className="mb-3 text-lg font-semibold text-slate-900">
        Agency pipeline
      </h2>
      <dl className="mb-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Stage</dt>
          <dd className="font-medium" data-testid="workflow-stage">
            {humanize(workflow.stage)}
          </dd>
        </div>
        <div>
          <dt className="text-xs tracking-wide text-slate-500 uppercase">
            {workflow.stage === "LOST" ? "Reason" : "Won premium"}
          </dt>
          <dd data-testid="workflow-premium">
            {workflow.stage === "LOST" ? (lostSummary(workflow) ?? "—") : formatCents(workflow.wonPremiumCents)}
          </dd>
        </div>
        <div>
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Assignee</dt>
          <dd data-testid="workflow-assignee">{workflow.assigneeName ?? "Unassigned"}</dd>
        </div>
        <div>
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Stage changed</dt>
          <dd>
            <RelativeTime iso={workflow.stageChangedAt?.toISOString()} />
          </dd>
        </div>
      </dl>
      <div className="grid gap-6 md:grid-cols-2">
        {canSetStage ? (
          <StageForm pullId={pullId} stage={workflow.stage} wonPremium={dollars(workflow.wonPremiumCents)} />
        ) : (
          <p className="text-sm text-slate-600">Only the assigned agent, a manager or an admin can change the stage.</p>
        )}
        <div>
          {canAssign ? <AssignForm pullId={pullId} assigneeId={workflow.assigneeId} people={people} /> : null}
          {canClaim ? <ClaimButton pullId={pullId} /> : null}
        </div>
        {archive.canArchive ? <ArchiveForm pullId={pullId} archive={archive} /> : null}
      </div>
    </section>
  );
}
