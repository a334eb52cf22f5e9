// The frame every figure of the reports page shares: a title with its CSV downloads, an
// optional note on what is counted, then the chart and its table, or one sentence saying why
// there is nothing to show.

import { LINK_CLASS } from "@/components/ui/link-class";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";

export function ChartFigure({
  title,
  downloads,
  note,
  empty,
  wide = false,
  testId,
  children,
}: {
  title: string;
  downloads: Array<{ label: string; href: string }>;
  note?: string;
  /** Shown instead of the children when set: there is nothing to draw. */
  empty?: string | null;
  /** Spans both columns of the page's grid on wide screens. */
  wide?: boolean;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <figure className={cn(CARD_CLASS, "min-w-0 p-4", wide && "lg:col-span-2")} data-testid={testId}>
      <figcaption className="mb-3">
        <span className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <span className="font-semibold text-slate-900">{title}</span>
          <span className="flex gap-3">
            {downloads.map((d) => (
              <a key={d.href} href={d.href} className={cn(LINK_CLASS, "text-xs")}>
                {d.label}
              </a>
            ))}
          </span>
        </span>
        {note ? <span className="mt-1 block text-xs text-slate-500">{note}</span> : null}
      </figcaption>
      {empty ? (
        <p className="text-sm text-slate-600" data-testid={testId ? `${testId}-empty` : undefined}>
          {empty}
        </p>
      ) : (
        children
      )}
    </figure>
  );
}
