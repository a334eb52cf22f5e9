import { cn } from "./class-names";

// A page's title (its one h1), with an optional line under it and actions beside it (a download
// link, a short note).

export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  className?: string;
}) {
  const heading = (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {description ? <p className="text-sm text-slate-600">{description}</p> : null}
    </div>
  );
  if (!actions) return className ? <div className={className}>{heading}</div> : heading;
  return (
    <div className={cn("flex flex-wrap items-baseline justify-between gap-2", className)}>
      {heading}
      {actions}
    </div>
  );
}
