import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { FilterSelect } from "@/components/ui/filter-select";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { humanize } from "@/lib/format";
import { GAP_CODES, GAP_LABELS } from "@/lib/review/cross-sell";
import { crossSellHref, POLICY_BUCKETS, type CrossSellQuery } from "@/lib/review/cross-sell-query";
import { PULL_STAGES } from "@/lib/workflow/stages";
import { Button } from "@/components/ui/button";

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
  const people = seesAll ? agents.map((a) => ({ value: a.id, label: a.name })) : [{ value: userId, label: "Mine" }];
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
        <FilterSelect
          name="agent"
          label="Agent"
          value={query.agent}
          options={[...people, { value: "unassigned", label: "Unassigned" }]}
        />
        <FilterSelect
          name="stage"
          label="Stage"
          value={query.stage}
          options={PULL_STAGES.map((s) => ({ value: s, label: humanize(s) }))}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit">Filter</Button>
        {filtered ? (
          <Link href={crossSellHref({})} className={cn(LINK_CLASS, "text-sm")}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
