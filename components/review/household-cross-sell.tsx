import { formatLimit } from "@/lib/format";
import { crossSellGaps } from "@/lib/cross-sell/gaps";
import type { Pull } from "@/lib/service/schemas";
import { Card } from "@/components/ui/card";

// The pull page's short list of this household's cross-sell gaps, each in words with its figures,
// computed from the pull already on the page (the same pure rules as the book-level list).

export function HouseholdCrossSell({ pull, today }: { pull: Pull; today: string }) {
  const { gaps, policyCount, premiumInPlayCents } = crossSellGaps(pull, today);
  // A pull with no policy in force (a failed link, an empty account) has nothing to sell across.
  if (policyCount === 0) return null;
  return (
    <Card aria-labelledby="household-cross-sell-title" className="space-y-2 sm:p-5" data-testid="household-cross-sell">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="household-cross-sell-title" className="text-lg font-semibold text-slate-900">
          Cross-sell
        </h2>
        {premiumInPlayCents !== null ? (
          <span className="text-sm text-slate-700">
            {formatLimit(Math.round(premiumInPlayCents / 100) * 100)} a year of premium in play
          </span>
        ) : null}
      </div>
      {gaps.length === 0 ? (
        <p className="text-sm text-slate-600">
          No cross-sell gaps in the policies in force, as far as the account&apos;s data shows.
        </p>
      ) : (
        <ul className="space-y-2">
          {gaps.map((gap) => (
            <li key={gap.code} className="text-sm" data-testid="cross-sell-gap" data-gap={gap.code}>
              <span className="font-medium text-slate-900">{gap.title}</span>
              <span className="block text-slate-700">{gap.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
