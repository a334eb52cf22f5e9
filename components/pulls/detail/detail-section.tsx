import { Card } from "@/components/ui/card";
// A titled part of the detail page that the table of contents can jump to. The heading holds
// only the title (the count sits beside it), so "Policies" is always found by that name.

export function DetailSection({
  id,
  title,
  count,
  children,
}: {
  id: string;
  title: string;
  count?: number;
  children: React.ReactNode;
}) {
  return (
    <Card id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 sm:p-5">
      <div className="mb-4 flex items-baseline gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {count !== undefined ? <span className="text-sm text-slate-600">({count})</span> : null}
      </div>
      {children}
    </Card>
  );
}

export type HeadingLevel = 3 | 4 | 5 | 6;

/** A heading at the level its place in the outline needs, so screen readers see no skipped level. */
export function Heading({
  level,
  className,
  children,
}: {
  level: HeadingLevel;
  className: string;
  children: React.ReactNode;
}) {
  const Tag = `h${level}` as const;
  return <Tag className={className}>{children}</Tag>;
}

/** A part within a section (level 3) or within a card (level 4, the default). */
export function SubHeading({ children, level = 4 }: { children: React.ReactNode; level?: 3 | 4 }) {
  return (
    <Heading level={level} className="mt-5 mb-2 text-sm font-semibold text-slate-700">
      {children}
    </Heading>
  );
}
