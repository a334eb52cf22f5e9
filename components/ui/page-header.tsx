import { cn } from "./class-names";

// A page's title (its one h1), with an optional line under it; its children sit beside it on
// the right (a download link, a count, a short note).

export function PageHeader({
  title,
  description,
  className,
  children,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
  children?: React.ReactNode;
}) {
  const heading = (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {description ? <p className="text-sm text-slate-600">{description}</p> : null}
    </div>
  );
  if (!children) return className ? <div className={className}>{heading}</div> : heading;
  return (
    <div className={cn("flex flex-wrap items-baseline justify-between gap-2", className)}>
      {heading}
      {children}
    </div>
  );
}
