import { formatCalendarDate, formatCents } from "@/lib/format";
import type { CameBackRow } from "@/lib/workflow/came-back";
import { lostSummary } from "@/lib/workflow/lost-reasons";
import { RelativeTime } from "@/components/ui/relative-time";

// A short banner at the top of a pull that came back on its own (lib/workflow/deal-returns.ts):
// why it is being worked again, and what it was lost on, so the agent calls knowing both.

export function DealReturnBanner({ dealReturn }: { dealReturn: CameBackRow }) {
  const why = lostSummary({ ...dealReturn, lostToPremiumCents: null });
  const recycled = dealReturn.kind !== "WIN_BACK";
  return (
    // Not a live "status": it is there when the page loads, and the page's forms own that role.
    <section
      aria-label="This deal came back"
      className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      data-testid="deal-return-banner"
    >
      <p className="font-semibold">
        {recycled
          ? "This lost deal came back: its X-date is near."
          : "This client came back: a refresh shows the policy gone."}{" "}
        <span className="font-normal">
          Back to Working <RelativeTime iso={dealReturn.returnedAt.toISOString()} />.
        </span>
      </p>
      <p className="mt-1">{dealReturn.headline}</p>
      <p className="mt-1 text-amber-800">
        {[
          why ? `${recycled ? "Lost" : "Gone"}: ${why}` : null,
          dealReturn.premiumThenCents !== null
            ? `${recycled ? "premium then" : "won at"} ${formatCents(dealReturn.premiumThenCents)}`
            : null,
          dealReturn.renewalPremiumCents !== null ? `renewal ${formatCents(dealReturn.renewalPremiumCents)}` : null,
          recycled && dealReturn.xDate ? `X-date ${formatCalendarDate(dealReturn.xDate)}` : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
    </section>
  );
}
