import { LINK_CLASS } from "@/components/ui/link-class";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { TabLink } from "@/components/ui/tab-link";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AlertInboxPage } from "@/lib/loaders/alerts-inbox";
import type { InboxRow, InboxView, InboxWhose } from "@/lib/alerts/inbox";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

// The alert inbox: tabs for open, snoozed and done; whose alerts (mine and the queue's, the
// queue's alone, or everyone's for managers); each alert in words with what else changed, a link
// to the account, and its buttons. Plain forms: it works before (and without) any script.

const KIND_LABELS: Record<string, string> = {
  PREMIUM_JUMP: "Premium up",
  CANCELLED: "Cancelled",
  LAPSED: "Lapsed",
  COVERAGE_CUT: "Coverage cut",
  SPEED_TO_LEAD: "Waiting untouched",
};
const KIND_TONES: Record<string, string> = {
  PREMIUM_JUMP: "bg-amber-100 text-amber-900",
  CANCELLED: "bg-red-100 text-red-900",
  LAPSED: "bg-red-100 text-red-900",
  COVERAGE_CUT: "bg-amber-100 text-amber-900",
  SPEED_TO_LEAD: "bg-sky-100 text-sky-900",
};

const VIEWS: Array<[InboxView, string]> = [
  ["open", "Open"],
  ["snoozed", "Snoozed"],
  ["done", "Done"],
];

const EMPTY: Record<InboxView, string> = {
  open: "Nothing needs you. When a monitored account's refresh shows a renewal premium up past the agency's threshold, a cancellation, a lapse or a coverage cut, or a new linked account waits untouched past the agency's speed-to-lead time, it lands here and in your daily digest.",
  snoozed: "Nothing snoozed. A snoozed alert comes back to Open on its own when its time is up.",
  done: "Nothing marked done yet.",
};

function href(view: InboxView, whose: InboxWhose): string {
  const params = new URLSearchParams();
  if (view !== "open") params.set("view", view);
  if (whose !== "mine") params.set("whose", whose);
  const query = params.toString();
  return query ? `/alerts?${query}` : "/alerts";
}

type Move = (formData: FormData) => Promise<void>;

function MoveButton({ alertId, move, label, action }: { alertId: number; move: string; label: string; action: Move }) {
  return (
    <form action={action}>
      <input type="hidden" name="alertId" value={alertId} />
      <input type="hidden" name="move" value={move} />
      <Button type="submit" variant="secondary" size="sm" className="font-medium text-slate-700">
        {label}
      </Button>
    </form>
  );
}

function AlertItem({ alert, view, action }: { alert: InboxRow; view: InboxView; action: Move }) {
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between" data-testid="alert">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <span
            className={`rounded px-1.5 py-0.5 font-medium ${KIND_TONES[alert.kind] ?? "bg-slate-100 text-slate-700"}`}
          >
            {KIND_LABELS[alert.kind] ?? alert.kind}
          </span>
          <span className="text-slate-500">
            <RelativeTime iso={alert.createdAt.toISOString()} /> · {alert.assigneeName ?? "Queue"}
          </span>
        </div>
        <p className="font-medium break-words text-slate-900" data-testid="alert-headline">
          {alert.headline}
        </p>
        <p className="text-sm text-slate-700">
          <Link href={`/pulls/${alert.pullId}`} className={LINK_CLASS}>
            {alert.holderName || "Open the account"}
          </Link>
        </p>
        {alert.details.length > 0 ? (
          <details className="text-sm text-slate-700">
            <summary className="cursor-pointer text-slate-600">What else changed ({alert.details.length})</summary>
            <ul className="mt-1 list-disc pl-5">
              {alert.details.map((detail) => (
                <li key={detail} className="break-words">
                  {detail}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {view === "done" ? (
          <MoveButton alertId={alert.id} move="reopen" label="Reopen" action={action} />
        ) : (
          <>
            <MoveButton alertId={alert.id} move="done" label="Done" action={action} />
            <MoveButton alertId={alert.id} move="snooze-1" label="Snooze a day" action={action} />
            <MoveButton alertId={alert.id} move="snooze-7" label="Snooze a week" action={action} />
          </>
        )}
      </div>
    </li>
  );
}

export function AlertInbox({ page, move }: { page: AlertInboxPage; move: Move }) {
  const { view, whose, rows } = page;
  const whoseOptions: Array<[InboxWhose, string]> = [
    ["mine", "Mine and the queue's"],
    ["queue", "The queue's"],
    ...(page.mayViewAll ? ([["everyone", "Everyone's"]] as Array<[InboxWhose, string]>) : []),
  ];
  return (
    <div className="space-y-4">
      <PageHeader title="Alerts">
        <p className="text-sm text-slate-600">What refreshes of monitored accounts found, in words.</p>
      </PageHeader>
      <nav aria-label="Alert views" className="flex flex-wrap gap-2 text-sm">
        {VIEWS.map(([value, label]) => (
          <TabLink key={value} href={href(value, whose)} current={value === view}>
            {label}
          </TabLink>
        ))}
        <span className="mx-2 border-l border-slate-200" aria-hidden="true" />
        {whoseOptions.map(([value, label]) => (
          <TabLink key={value} href={href(view, value)} current={value === whose} currentAs="true">
            {label}
          </TabLink>
        ))}
      </nav>
      {rows.length === 0 ? (
        <p className={EMPTY_STATE_CLASS} data-testid="alerts-empty">
          {EMPTY[view]}
        </p>
      ) : (
        <ul className={cn(CARD_CLASS, "divide-y divide-slate-100")} data-testid="alert-list">
          {rows.map((alert) => (
            <AlertItem key={alert.id} alert={alert} view={view} action={move} />
          ))}
        </ul>
      )}
    </div>
  );
}
