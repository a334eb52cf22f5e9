import { LINK_CLASS } from "@/components/ui/link-class";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { can } from "@/lib/auth/permissions";
import { incidentScopeHrefFor } from "@/lib/audit/incident-scope";
import { humanize } from "@/lib/format";
import { auditPageHref, loadAuditPage } from "@/lib/loaders/audit";
import { RelativeTime } from "@/components/ui/relative-time";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DateRangeFields, FilterField, FilterForm } from "@/components/ui/filter-form";
import { FilterSelect } from "@/components/ui/filter-select";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Audit trail" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission("audit:view");
  const canScope = can(user, "incident:view");
  const { filter, rows, hasMore, people, actions } = await loadAuditPage(await getDb(), await searchParams);
  const pageHref = (page: number) => auditPageHref(filter, page);

  return (
    <div className="space-y-4">
      <PageHeader title="Audit trail" />
      <Card as="div">
        <FilterForm label="Filter the audit trail" clearHref="/admin/audit">
          <FilterSelect
            name="action"
            label="What"
            anyLabel="Anything"
            value={filter.action}
            options={actions.map((a) => ({ value: a, label: humanize(a) }))}
          />
          <FilterSelect
            name="actor"
            label="Who"
            anyLabel="Anyone"
            value={filter.actor}
            options={people.map((p) => ({ value: p.id, label: p.name }))}
          />
          <FilterField label="Pull id">
            <Input name="pull" defaultValue={filter.pull ?? ""} className="w-72 font-mono" />
          </FilterField>
          <DateRangeFields from={filter.from} to={filter.to} />
        </FilterForm>
      </Card>
      {rows.length === 0 ? (
        <p className={EMPTY_STATE_CLASS}>
          No entries match.{" "}
          <Link href="/admin/audit" className={LINK_CLASS}>
            Clear the filters
          </Link>
        </p>
      ) : (
        <ol className={cn(CARD_CLASS, "divide-y divide-slate-100 text-sm")} data-testid="audit-entries">
          {rows.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 px-4 py-2 sm:flex-row sm:items-baseline sm:gap-4">
              <span className="shrink-0 text-slate-500 tabular-nums">
                <RelativeTime iso={entry.at.toISOString()} />
              </span>
              <span className="flex-1 text-slate-800">{auditSentence(entry)}</span>
              {entry.address || entry.sessionId ? (
                <span className="shrink-0 font-mono text-xs text-slate-500" data-testid="audit-origin">
                  {entry.address ?? ""}
                  {entry.sessionId ? ` · session ${entry.sessionId.slice(0, 8)}` : ""}
                </span>
              ) : null}
              {canScope && incidentScopeHrefFor(entry) ? (
                <Link href={incidentScopeHrefFor(entry) ?? ""} className={cn(LINK_CLASS, "text-xs")}>
                  {entry.sessionId ? "what this session saw" : "what this address saw"}
                </Link>
              ) : null}
              {entry.pullId ? (
                <Link href={`/pulls/${entry.pullId}`} className={cn(LINK_CLASS, "text-xs")}>
                  open pull
                </Link>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <nav aria-label="Pages" className="flex justify-end gap-2 text-sm">
        {filter.page > 1 ? (
          <Link href={pageHref(filter.page - 1)} className={buttonClass({ variant: "secondary" })}>
            Newer
          </Link>
        ) : null}
        {hasMore ? (
          <Link href={pageHref(filter.page + 1)} className={buttonClass({ variant: "secondary" })}>
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
