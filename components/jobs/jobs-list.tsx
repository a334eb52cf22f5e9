import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/relative-time";
import type { JobRunState, JobRunView, JobView } from "@/lib/loaders/jobs";
import type { FormAction } from "@/lib/core/form-state";

// The admins' jobs page: one card per scheduled job, with its schedule, its last runs and a
// "Run now". The action comes from the page as a prop.

const STATES: Record<JobRunState, { label: string; tone: "neutral" | "warning" | "danger" | "success" | "info" }> = {
  created: { label: "Waiting", tone: "neutral" },
  retry: { label: "Failed, will retry", tone: "warning" },
  active: { label: "Running", tone: "info" },
  completed: { label: "Done", tone: "success" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  failed: { label: "Failed", tone: "danger" },
};

export function JobsList({ jobs, runNow }: { jobs: JobView[]; runNow: FormAction }) {
  return (
    <div className="space-y-4" data-testid="jobs">
      {jobs.map((job) => (
        <Card key={job.name} aria-labelledby={`job-${job.name}`} className="space-y-3">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 id={`job-${job.name}`} className="text-lg font-medium text-slate-900">
                {job.title}
              </h2>
              <p className="text-sm text-slate-600">{job.description}</p>
              <p className="text-sm text-slate-600">
                Runs {job.every} (<code>{job.cron}</code>, UTC)
              </p>
            </div>
            <ActionForm action={runNow} submitLabel="Run now" pendingLabel="Queuing…" submitVariant="secondary" inline>
              <input type="hidden" name="name" value={job.name} />
            </ActionForm>
          </div>
          <DataTable<JobRunView>
            label={`${job.title} runs`}
            testId={`job-runs-${job.name}`}
            rows={job.runs}
            rowKey={(run) => run.id}
            empty={<p className="text-sm text-slate-600">No run yet.</p>}
            columns={[
              {
                header: "State",
                cell: (run) => <Badge tone={STATES[run.state].tone}>{STATES[run.state].label}</Badge>,
              },
              { header: "Started", cell: (run) => <RelativeTime iso={run.startedAt?.toISOString() ?? null} /> },
              { header: "Finished", cell: (run) => <RelativeTime iso={run.finishedAt?.toISOString() ?? null} /> },
              { header: "Retries", numeric: true, cell: (run) => run.retries },
              {
                header: "What happened",
                className: "break-words",
                cell: (run) =>
                  run.error ? (
                    <span className="text-red-800">{run.error}</span>
                  ) : (
                    (run.summary ?? (run.state === "completed" ? "Nothing to do" : "—"))
                  ),
              },
            ]}
          />
        </Card>
      ))}
    </div>
  );
}
