import Link from "next/link";
import { humanize } from "@/lib/format";
import { PULL_STAGES } from "@/lib/core/pull-stages";
import { Button } from "./button";
import { cn } from "./class-names";
import { LINK_CLASS } from "./link-class";
import { FilterSelect } from "./filter-select";

// The filters every list of the book shares (the cross-sell list, the X-dates): who works it,
// its stage, and the form's buttons. Agents see the book through the pull list's rule, so their
// only agent choices are themselves and the unassigned queue.

export function AgentFilter({
  value,
  agents,
  seesAll,
  userId,
}: {
  value: string | undefined;
  agents: Array<{ id: string; name: string }>;
  seesAll: boolean;
  userId: string;
}) {
  const people = seesAll ? agents.map((a) => ({ value: a.id, label: a.name })) : [{ value: userId, label: "Mine" }];
  return (
    <FilterSelect
      name="agent"
      label="Agent"
      value={value}
      options={[...people, { value: "unassigned", label: "Unassigned" }]}
    />
  );
}

export function StageFilter({ value }: { value: string | undefined }) {
  return (
    <FilterSelect
      name="stage"
      label="Stage"
      value={value}
      options={PULL_STAGES.map((s) => ({ value: s, label: humanize(s) }))}
    />
  );
}

/** Filter, and a way back to the unfiltered view when a filter is set. */
export function FilterButtons({ filtered, clearHref }: { filtered: boolean; clearHref: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="submit">Filter</Button>
      {filtered ? (
        <Link href={clearHref} className={cn(LINK_CLASS, "text-sm")}>
          Clear filters
        </Link>
      ) : null}
    </div>
  );
}
