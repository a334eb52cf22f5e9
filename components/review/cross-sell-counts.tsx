import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import Link from "next/link";
import { formatCount } from "@/lib/format";
import { GAP_CODES, GAP_LABELS } from "@/lib/cross-sell/gaps";
import type { CrossSellCounts as Counts } from "@/lib/cross-sell/queries";
import { crossSellHref, POLICY_BUCKETS, type CrossSellQuery } from "@/lib/cross-sell/list-query";
import { policiesWords } from "./cross-sell-filters";

// Households by gap and by policies in force, each count a link that narrows the list to it (or,
// when it is the filter already, widens it again). Each group is counted under the other's filter.

function CountLink({ href, label, count, current }: { href: string; label: string; count: number; current: boolean }) {
  return (
    <li>
      <Link
        href={href}
        aria-current={current ? "true" : undefined}
        className={`flex items-baseline justify-between gap-3 rounded-md px-2 py-1 text-sm ${
          current ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"
        }`}
      >
        <span>{label}</span>
        <span className="font-semibold tabular-nums">{formatCount(count)}</span>
      </Link>
    </li>
  );
}

export function CrossSellCounts({ counts, query }: { counts: Counts; query: CrossSellQuery }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <section aria-labelledby="by-gap" className={cn(CARD_CLASS, "p-3")} data-testid="gap-counts">
        <h2 id="by-gap" className="px-2 pb-1 text-sm font-semibold text-slate-900">
          Households by gap
        </h2>
        <ul className="space-y-0.5">
          {GAP_CODES.map((code) => (
            <CountLink
              key={code}
              href={crossSellHref(query, { gap: query.gap === code ? undefined : code, page: undefined })}
              label={GAP_LABELS[code]}
              count={counts.byGap[code]}
              current={query.gap === code}
            />
          ))}
        </ul>
      </section>
      <section aria-labelledby="by-policies" className={cn(CARD_CLASS, "p-3")} data-testid="policy-counts">
        <h2 id="by-policies" className="px-2 pb-1 text-sm font-semibold text-slate-900">
          Households by policies in force
        </h2>
        <ul className="space-y-0.5">
          {POLICY_BUCKETS.map((bucket) => (
            <CountLink
              key={bucket}
              href={crossSellHref(query, { policies: query.policies === bucket ? undefined : bucket, page: undefined })}
              label={policiesWords(bucket)}
              count={counts.byPolicies[bucket]}
              current={query.policies === bucket}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}
