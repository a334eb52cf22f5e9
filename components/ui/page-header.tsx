import { cn } from "./class-names";

// A page's title (its one h1), with an optional line under it; its children sit beside it on
// the right (a download link, a count, a short note).

const TONES = {
  default: "text-2xl font-semibold break-words text-slate-900",
  /** The pages outside the app (sign in, the consumer's pages): the brand's colour. */
  brand: "text-2xl font-semibold break-words text-brand-900",
  /** Inside an alert box: smaller, in the box's colour. */
  alert: "text-lg font-semibold break-words",
} as const;

export function PageHeader({
  title,
  description,
  tone = "default",
  className,
  children,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  tone?: keyof typeof TONES;
  className?: string;
  children?: React.ReactNode;
}) {
  const heading = (
    <div className="min-w-0">
      <h1 className={TONES[tone]}>{title}</h1>
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
