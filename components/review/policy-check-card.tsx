import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { indexPull, policyLabel, vehicleTitle } from "@/components/pulls/detail/pull-lookups";
import { LooseRecordView } from "@/components/pulls/detail/loose-fields";
import { DASH, formatAddress } from "@/lib/format";
import type { PolicyCheckView } from "@/lib/policy-check/runs";
import { onFileOf } from "@/lib/policy-check/values";
import { checkRows, statusWords, type CheckOutcome } from "@/lib/policy-check/words";
import type { Pull } from "@/lib/service/schemas";
import type { FormAction } from "@/lib/core/form-state";
import { RerunPolicyCheckForm } from "./rerun-policy-check-form";

// The service's policy check on the pull page: the status, each rule's outcome on each vehicle
// and home with the values the service gives, where the results come from (the pull as linked,
// or a run again: when, by whom), "Run the check again" and the service's PDF report. The
// service's words are its own (React escapes them); an unknown form of results shows as sent.

const TONE: Record<CheckOutcome, "success" | "danger" | "warning" | "neutral"> = {
  PASS: "success",
  FAIL: "danger",
  REVIEW: "warning",
  OTHER: "neutral",
};

const STATUS_TONE: Record<string, "success" | "danger" | "warning"> = {
  COMPLIANT: "success",
  NOT_COMPLIANT: "danger",
  REVIEW_REQUIRED: "warning",
};

type Props = { pull: Pull; view: PolicyCheckView; canRun: boolean; canDownload: boolean; rerun: FormAction };

export function PolicyCheckCard({ pull, view, canRun, canDownload, rerun }: Props) {
  const index = indexPull(pull);
  const names = {
    vehicle: (id: string) => {
      const vehicle = index.vehicles.get(id);
      return vehicle ? vehicleTitle(vehicle) : null;
    },
    dwelling: (id: string) => {
      const dwelling = index.dwellings.get(id);
      if (!dwelling) return null;
      const address = formatAddress(dwelling.address);
      return address === DASH ? "Home" : address;
    },
    policy: (id: string) => {
      const policy = index.policies.get(id);
      return policy ? policyLabel(policy) : null;
    },
    onFile: onFileOf(pull),
  };
  const rows = Array.isArray(view.results) ? checkRows(view.results, names) : [];
  const checked = view.status !== null && view.status !== "NONE";
  const tone = (view.status ? STATUS_TONE[view.status] : undefined) ?? "neutral";
  return (
    <div className="space-y-4" data-testid="policy-check">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={tone}>
          <span data-testid="policy-check-status">{statusWords(view.status)}</span>
        </Badge>
        <span className="text-sm text-slate-600" data-testid="policy-check-source">
          {view.source.kind === "run" ? (
            <>
              Run again by {view.source.ranByName ?? "someone"} <RelativeTime iso={view.source.ranAt.toISOString()} />
            </>
          ) : checked ? (
            "Checked by the service when the account was linked."
          ) : (
            "The service did not check this pull against the team's rules."
          )}
        </span>
      </div>
      {rows.length > 0 ? (
        <DataTable
          label="Policy check results"
          testId="policy-check-results"
          rows={rows}
          rowKey={(_, i) => String(i)}
          rowTestId="policy-check-row"
          rowData={(row) => ({ "data-rule": row.rule, "data-outcome": row.outcome })}
          columns={[
            { header: "Rule", className: "text-slate-900", cell: (row) => row.ruleWords },
            { header: "On", className: "text-slate-700", cell: (row) => row.subject },
            { header: "Result", cell: (row) => <Badge tone={TONE[row.outcome]}>{row.outcomeText}</Badge> },
            { header: "What the service found", className: "text-slate-700", cell: (row) => row.message || DASH },
            {
              header: "On file with the carrier",
              className: "text-slate-700",
              testId: "policy-check-on-file",
              cell: (row) => row.onFile ?? DASH,
            },
          ]}
        />
      ) : view.results && !Array.isArray(view.results) ? (
        <LooseRecordView record={view.results} label="Policy check results as the service sent them" level={3} />
      ) : checked ? (
        <p className="text-sm text-slate-700">The service gave a status but no results per rule.</p>
      ) : null}
      <div className="flex flex-wrap items-start gap-4">
        {canRun ? <RerunPolicyCheckForm action={rerun} pullId={pull.pull_id} /> : null}
        {canDownload && checked ? (
          <a
            href={`/api/pulls/${pull.pull_id}/policy-check-report`}
            className={cn(LINK_CLASS, "text-sm font-medium")}
            data-testid="policy-check-report-link"
          >
            The service&apos;s report (PDF)
          </a>
        ) : null}
      </div>
    </div>
  );
}
