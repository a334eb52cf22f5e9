import type { Metadata } from "next";
import Link from "next/link";
import { auditSentence } from "@/components/workflow/audit-sentence";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { humanize } from "@/lib/format";
import { auditPageHref, loadAuditPage } from "@/lib/loaders/audit";
import { RelativeTime } from "@/components/ui/relative-time";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Audit trail" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission("audit:view");
  const { filter, rows, hasMore, people, actions } = await loadAuditPage(await getDb(), await searchParams);
  const pageHref = (page: number) => auditPageHref(filter, page);

  return (
    <div className="space-y-4">
      <PageHeader title="Audit trail" />
      <form
        method="get"
        aria-label="Filter the audit trail"
        className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      >
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">What</span>
          <Select name="action" defaultValue={filter.action ?? ""}>
            <option value="">Anything</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {humanize(a)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Who</span>
          <Select name="actor" defaultValue={filter.actor ?? ""}>
            <option value="">Anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Pull id</span>
          <input
            name="pull"
            defaultValue={filter.pull ?? ""}
            className="w-72 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs"
          />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">From</span>
          <Input type="date" name="from" defaultValue={filter.from ?? ""} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">To</span>
          <Input type="date" name="to" defaultValue={filter.to ?? ""} />
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
        <Link href="/admin/audit" className="px-1 py-1.5 text-brand-700 hover:underline">
          Clear
        </Link>
      </form>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No entries match.{" "}
          <Link href="/admin/audit" className="text-brand-700 hover:underline">
            Clear the filters
          </Link>
        </p>
      ) : (
        <ol
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm"
          data-testid="audit-entries"
        >
          {rows.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 px-4 py-2 sm:flex-row sm:items-baseline sm:gap-4">
              <span className="shrink-0 text-slate-500 tabular-nums">
                <RelativeTime iso={entry.at.toISOString()} />
              </span>
              <span className="flex-1 text-slate-800">{auditSentence(entry)}</span>
              {entry.pullId ? (
                <Link href={`/pulls/${entry.pullId}`} className="text-xs text-brand-700 hover:underline">
                  open pull
                </Link>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <nav aria-label="Pages" className="flex justify-end gap-2 text-sm">
        {filter.page > 1 ? (
          <Link href={pageHref(filter.page - 1)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5">
            Newer
          </Link>
        ) : null}
        {hasMore ? (
          <Link href={pageHref(filter.page + 1)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5">
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
