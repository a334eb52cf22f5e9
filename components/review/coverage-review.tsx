import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { groupFindings } from "@/lib/review/coverage";
import type { FindingDecision } from "@/lib/review/decisions";
import type { Severity } from "@/lib/review/finding";
import type { CoverageReview as Review } from "@/lib/review/review-page";
import type { FormAction } from "@/lib/core/form-state";
import { FindingDecisionForm } from "./finding-decision-form";

// The household's coverage review, under its summary: the findings grouped by line, gaps first,
// each with its figures, the next step, the client's decision (who recorded it, when) and the
// form to record one. Server-rendered; every text comes from the carrier's data through the
// review, and React escapes it.

const SEVERITY: Record<Severity, { label: string; tone: "danger" | "warning" | "neutral" }> = {
  gap: { label: "Gap", tone: "danger" },
  warning: { label: "To discuss", tone: "warning" },
  unknown: { label: "Data missing", tone: "neutral" },
};

// Client-side words for decisions (lib/review/decisions.ts is server-only).
const DECISION_WORDS: Record<FindingDecision, string> = {
  ACCEPTED: "Accepted",
  DECLINED: "Declined by the client",
  NOT_APPLICABLE: "Not applicable",
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Summary({ review }: { review: Review }) {
  const gaps = review.findings.filter((f) => f.severity === "gap").length;
  const warnings = review.findings.filter((f) => f.severity === "warning").length;
  const unknowns = review.findings.filter((f) => f.severity === "unknown").length;
  if (gaps + warnings === 0)
    return (
      <p className="text-sm text-slate-700" data-testid="coverage-review-empty">
        No gaps found in what the carrier sent.
        {unknowns > 0
          ? ` ${count(unknowns, "thing the data cannot tell is", "things the data cannot tell are")} listed below.`
          : ""}
      </p>
    );
  const parts = [
    gaps > 0 ? count(gaps, "gap", "gaps") : null,
    warnings > 0 ? `${warnings} to discuss` : null,
    unknowns > 0 ? `${unknowns} the data cannot tell` : null,
  ].filter(Boolean);
  const open = review.findings.filter((f) => f.severity !== "unknown" && !f.decision).length;
  return (
    <p className="text-sm text-slate-700">
      {parts.join(", ")}.{" "}
      {open > 0
        ? `${count(open, "finding awaits", "findings await")} the client's decision.`
        : "Every finding has a decision."}
    </p>
  );
}

export function CoverageReview({ pullId, review, decide }: { pullId: string; review: Review; decide: FormAction }) {
  const groups = groupFindings(review.findings);
  return (
    <div className="space-y-4" data-testid="coverage-review">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Summary review={review} />
        <a
          href={`/api/pulls/${pullId}/summary`}
          download
          className={cn(LINK_CLASS, "text-sm font-medium")}
          data-testid="client-summary-link"
        >
          Download the client summary (PDF)
        </a>
      </div>
      {groups.map((group) => (
        <div key={group.line}>
          <h3 className="mb-2 text-sm font-semibold text-slate-900">{group.label}</h3>
          <ul className="space-y-3">
            {group.findings.map((finding) => {
              const severity = SEVERITY[finding.severity];
              const decision = finding.decision;
              return (
                <li
                  key={finding.key}
                  className="rounded-md border border-slate-200 p-3 break-words"
                  data-testid="coverage-finding"
                  data-severity={finding.severity}
                  data-rule={finding.rule}
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={severity.tone}>{severity.label}</Badge>
                    <span className="text-sm font-semibold text-slate-900" data-testid="finding-title">
                      {finding.title}
                    </span>
                  </div>
                  <p className="mt-1 text-sm text-slate-700" data-testid="finding-detail">
                    {finding.detail}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">
                    <span className="font-medium">Next step:</span> {finding.nextStep}
                  </p>
                  {decision ? (
                    <p className="mt-2 text-sm text-slate-800" data-testid="finding-decision">
                      <span className="font-medium">{DECISION_WORDS[decision.decision]}</span>, recorded by{" "}
                      {decision.decidedByName} <RelativeTime iso={decision.decidedAt.toISOString()} />
                      {decision.note ? <span className="block text-slate-600">“{decision.note}”</span> : null}
                    </p>
                  ) : null}
                  {review.canDecide ? (
                    <details className="mt-2">
                      <summary className="cursor-pointer text-sm text-brand-700">
                        {decision ? "Change the decision" : "Record the client's decision"}
                      </summary>
                      <div className="mt-2">
                        <FindingDecisionForm
                          action={decide}
                          pullId={pullId}
                          findingKey={finding.key}
                          title={finding.title}
                          decision={decision?.decision ?? null}
                          note={decision?.note ?? ""}
                        />
                      </div>
                    </details>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}
