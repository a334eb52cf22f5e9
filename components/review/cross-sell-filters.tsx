import { FilterSelect } from "@/components/ui/filter-select";
import { GAP_CODES, GAP_LABELS } from "@/lib/cross-sell/gaps";
import { crossSellHref, POLICY_BUCKETS, type CrossSellQuery } from "@/lib/cross-sell/list-query";
import { AgentFilter, FilterButtons, StageFilter } from "@/components/ui/list-filters";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";

// The list's filters as a plain GET form: it works without JavaScript, and every view is a URL
// that can be shared, bookmarked and reloaded.

export const policiesWords = (bucket: string) => (bucket === "1" ? "1 policy" : `${bucket} policies`);

export function CrossSellFilters({
  query,
  agents,
  seesAll,
  userId,
}: {
  query: CrossSellQuery;
  agents: Array<{ id: string; name: string }>;
  seesAll: boolean;
  userId: string;
}) {
  const filtered = Boolean(query.gap || query.policies || query.agent || query.stage);
  return (
    <form method="get" action="/cross-sell" aria-label="Filter households" className={cn(CARD_CLASS, "space-y-3 p-4")}>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <FilterSelect
          name="gap"
          label="Gap"
          value={query.gap}
          options={GAP_CODES.map((code) => ({ value: code, label: GAP_LABELS[code] }))}
        />
        <FilterSelect
          name="policies"
          label="Policies in force"
          value={query.policies}
          options={POLICY_BUCKETS.map((b) => ({ value: b, label: policiesWords(b) }))}
        />
        <AgentFilter value={query.agent} agents={agents} seesAll={seesAll} userId={userId} />
        <StageFilter value={query.stage} />
      </div>
      <FilterButtons filtered={filtered} clearHref={crossSellHref({})} />
    </form>
  );
}
