import { LINK_CLASS } from "@/components/ui/link-class";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { AttentionList } from "@/components/workflow/attention-list";
import { CameBack } from "@/components/workflow/came-back";
import { getDb } from "@/lib/database";
import { PULL_STAGES } from "@/lib/core/pull-stages";
import { requireUser } from "@/lib/auth/session";
import { formatCalendarDate, formatCents, humanize } from "@/lib/format";
import { loadMyPage } from "@/lib/loaders/my-page";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "My pulls" };

export default async function MyPullsPage() {
  const user = await requireUser();
  const { home, month, allTime, total, cameBack } = await loadMyPage(await getDb(), user);

  return (
    <div className="space-y-5">
      <PageHeader title="My pulls">
        <Link href={`/pulls?assignee=${user.id}`} className={cn(LINK_CLASS, "text-sm")}>
          See all {total} of mine in the list
        </Link>
      </PageHeader>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="My pulls by stage">
        {PULL_STAGES.map((stage) => (
          <li key={stage}>
            <Link
              href={`/pulls?assignee=${user.id}&stage=${stage}`}
              className={cn(CARD_CLASS, "block p-4 hover:bg-slate-50")}
            >
              <span className="block text-xs tracking-wide text-slate-500 uppercase">{humanize(stage)}</span>
              <span className="text-2xl font-semibold tabular-nums" data-testid={`my-${stage}`}>
                {home.stages[stage] ?? 0}
              </span>
            </Link>
          </li>
        ))}
        <li>
          <Link href="/pulls?assignee=unassigned" className={cn(CARD_CLASS, "block p-4 hover:bg-slate-50")}>
            <span className="block text-xs tracking-wide text-slate-500 uppercase">Unassigned queue</span>
            <span className="text-2xl font-semibold tabular-nums" data-testid="my-queue">
              {home.queue.toLocaleString("en-US")}
              {home.queueCapped ? "+" : ""}
            </span>
          </Link>
        </li>
      </ul>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="my-numbers">
        <Card as="div">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Won this month</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid="my-won-month">
            {formatCents(month.won.cents)}
          </dd>
          <dd className="text-sm text-slate-600">{month.won.count} pulls</dd>
        </Card>
        <Card as="div">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">Won in all</dt>
          <dd className="text-2xl font-semibold tabular-nums">{formatCents(allTime.won.cents)}</dd>
          <dd className="text-sm text-slate-600">{allTime.won.count} pulls</dd>
        </Card>
        <Card as="div">
          <dt className="text-xs tracking-wide text-slate-500 uppercase">My close ratio</dt>
          <dd className="text-2xl font-semibold tabular-nums">
            {allTime.closeRatio.ratio === null ? "—" : `${Math.round(allTime.closeRatio.ratio * 1000) / 10}%`}
          </dd>
          <dd className="text-sm text-slate-600">
            {allTime.closeRatio.won} won, {allTime.closeRatio.lost} lost
          </dd>
        </Card>
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <AttentionList
          title="New for you"
          rows={home.fresh}
          empty="Nothing new since you last looked. Pulls assigned to you show here until you open them."
          detail={(r) => (
            <>
              assigned <RelativeTime iso={r.assignedAt?.toISOString()} />
            </>
          )}
          testId="attention-new"
        />
        <AttentionList
          title="Expiring within 30 days"
          rows={home.expiring}
          empty="No policy of yours expires in the next 30 days."
          detail={(r) => `expires ${formatCalendarDate(r.nextExpiryDate)}`}
          testId="attention-expiring"
        />
        <AttentionList
          title="Needs the consumer to reconnect"
          rows={home.reconnect}
          empty="Every monitored account of yours is connected."
          detail={() => "reconnect needed"}
          testId="attention-reconnect"
        />
      </div>
      <CameBack rows={cameBack} />
    </div>
  );
}
