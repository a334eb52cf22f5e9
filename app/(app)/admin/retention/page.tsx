import type { Metadata } from "next";
import Link from "next/link";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { DisposalPreview } from "@/components/privacy/disposal-preview";
import { LegalHoldsTable } from "@/components/privacy/legal-holds-table";
import { RetentionScheduleForm } from "@/components/privacy/retention-schedule-form";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { FilterField, FilterForm } from "@/components/ui/filter-form";
import { Input } from "@/components/ui/input";
import { LINK_CLASS } from "@/components/ui/link-class";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { formatInstant } from "@/lib/format";
import { loadRetentionPage } from "@/lib/loaders/retention";
import { saveRetentionScheduleAction } from "./actions";

export const metadata: Metadata = { title: "Retention" };

// GET /admin/retention — the retention schedule per kind of record, the dry run of the next
// disposal (or of the run on a day the admin names: ?on=YYYY-MM-DD), the standing legal holds and
// the last runs.
export default async function RetentionPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission("retention:manage");
  const page = await loadRetentionPage(await getDb(), await searchParams);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Retention"
        description={
          <>
            How long each kind of record is kept before the daily disposal removes it, what the next run would remove,
            and what is on legal hold. Held records are never disposed of; every change and every run is in the audit
            trail.
          </>
        }
      />
      <RetentionScheduleForm schedule={page.schedule} action={saveRetentionScheduleAction} />
      <Card aria-labelledby="dry-run-title" className="space-y-3">
        <h2 id="dry-run-title" className="text-lg font-semibold text-slate-900">
          Dry run
        </h2>
        <p className="text-sm text-slate-700">
          Counted by the very queries the disposal runs with, under the schedule as saved. Accounts go whole (every pull
          of them); an account under monitoring, or on legal hold, is never due.
        </p>
        <FilterForm
          label="Dry run for a day"
          clearHref={page.chosenDay ? "/admin/retention" : null}
          clearLabel="Next run"
          submitLabel="Count"
        >
          <FilterField label="The run on">
            <Input name="on" type="date" defaultValue={page.chosenDay ?? page.runAt.toISOString().slice(0, 10)} />
          </FilterField>
        </FilterForm>
        {page.ignoredDay ? (
          <p role="status" className="text-sm text-amber-800">
            That day is not a coming run (past, or more than twenty years ahead): the next run is shown.
          </p>
        ) : null}
        <DisposalPreview due={page.due} schedule={page.schedule} runAt={page.runAt} />
        <p className="text-sm text-slate-700">
          The disposal runs daily (
          <Link href="/admin/jobs" className={cn(LINK_CLASS)}>
            Scheduled jobs
          </Link>
          , where Run now starts one at once).
        </p>
      </Card>
      <Card aria-labelledby="holds-title" className="space-y-3">
        <h2 id="holds-title" className="text-lg font-semibold text-slate-900">
          Legal holds
        </h2>
        <LegalHoldsTable holds={page.holds} />
      </Card>
      <Card aria-labelledby="runs-title" className="space-y-2">
        <h2 id="runs-title" className="text-lg font-semibold text-slate-900">
          Last runs
        </h2>
        {page.lastRuns.length === 0 ? (
          <p className="text-sm text-slate-700">No disposal has run yet.</p>
        ) : (
          <ul className="space-y-1 text-sm text-slate-700" data-testid="disposal-runs">
            {page.lastRuns.map((run) => (
              <li key={run.at.toISOString()}>
                {formatInstant(run.at, "en-US", "UTC")} UTC:{" "}
                {auditSentence({ action: "RETENTION_DISPOSAL_RUN", actorName: null, details: run.details })}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
