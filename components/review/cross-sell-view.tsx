import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { EMPTY_STATE_CLASS } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { formatCount, formatLimit } from "@/lib/format";
import type { CrossSellPage } from "@/lib/loaders/cross-sell";
import { crossSellHref } from "@/lib/cross-sell/list-query";
import { CrossSellCounts } from "./cross-sell-counts";
import { CrossSellFilters } from "./cross-sell-filters";
import { CrossSellTable } from "./cross-sell-table";
import { PageHeader } from "@/components/ui/page-header";

// The cross-sell page: households across the book whose policies leave room to sell, counted by
// gap and by policies in force, then listed by the premium their gaps put in play.

export function CrossSellView({ data, userId }: { data: CrossSellPage; userId: string }) {
  const { query, counts } = data;
  const filtered = Boolean(query.gap || query.policies || query.agent || query.stage);
  const csvHref = crossSellHref(query, { page: undefined }, "/api/cross-sell/csv");
  return (
    <div className="space-y-4">
      <PageHeader title="Cross-sell">
        <a href={csvHref} className={cn(LINK_CLASS, "text-sm")}>
          Download CSV
        </a>
      </PageHeader>
      <p className="text-sm text-slate-700">
        Households whose policies leave room to sell: auto without a home, condo or renters policy; home and auto with
        no umbrella where limits or assets call for one; a home with no flood policy; drivers under 25; lines spread
        across carriers a bundle would join. Each household is its account&apos;s newest successful pull, with the
        policies in force. {data.seesAll ? "Every agent's households." : "Your households and the unassigned queue."}
      </p>
      <CrossSellCounts counts={counts} query={query} />
      <CrossSellFilters query={query} agents={data.agents} seesAll={data.seesAll} userId={userId} />
      {data.ignored.length > 0 ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Some of the link&apos;s filters could not be read and were left out: {data.ignored.join(", ")}.
        </p>
      ) : null}
      <p className="text-base text-slate-900" data-testid="cross-sell-totals" aria-live="polite">
        <strong>{formatCount(counts.total)}</strong> {counts.total === 1 ? "household" : "households"}
        {filtered ? " matching the filters" : ""},{" "}
        <strong>{formatLimit(Math.round(counts.premiumInPlayCents / 100) * 100)}</strong> a year of premium in play.
      </p>
      <section aria-labelledby="cross-sell-list-title" className="space-y-2">
        <h2 id="cross-sell-list-title" className="text-lg font-semibold text-slate-900">
          Households
        </h2>
        <CrossSellTable
          rows={data.rows}
          empty={
            <div className={EMPTY_STATE_CLASS} data-testid="cross-sell-empty">
              <p className="font-medium">
                {filtered
                  ? "No households match these filters."
                  : data.page > 1
                    ? "This page is past the end of the list."
                    : "No households with policies in force yet."}
              </p>
              <p className="mt-1 text-sm">
                {filtered
                  ? "Clear a filter, or choose another gap or number of policies."
                  : data.seesAll
                    ? "Households come from linked accounts: once a consumer links an account with policies in force, it shows here with its gaps."
                    : "Households come from your linked accounts and the unassigned queue: take a pull from the queue to see its gaps here."}
              </p>
            </div>
          }
        />
        <Pagination page={data.page} pageCount={data.pageCount} basePath="/cross-sell" query={query} />
      </section>
    </div>
  );
}
