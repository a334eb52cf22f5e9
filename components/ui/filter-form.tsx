import { LINK_CLASS } from "./link-class";
import Link from "next/link";
import { Button, type ButtonVariant } from "./button";
import { cn } from "./class-names";
import { Input } from "./input";

// A list's filters as a plain GET form: it works without JavaScript, and the result is a URL
// that can be shared, bookmarked and reloaded. The fields (`FilterField`, `FilterSelect`,
// `DateRangeFields`) sit on one wrapping line, then Apply and a link that clears them all.

export function FilterForm({
  label,
  action,
  clearHref,
  clearLabel = "Clear",
  submitLabel = "Apply",
  submitVariant = "secondary",
  className,
  children,
}: {
  /** The form's accessible name ("Report filters"). */
  label: string;
  /** Where it goes; by default the page it is on. */
  action?: string;
  /** The page without filters; no Clear link without it (nothing to clear). */
  clearHref?: string | null;
  clearLabel?: string;
  submitLabel?: string;
  submitVariant?: ButtonVariant;
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <form
      method="get"
      {...(action ? { action } : {})}
      aria-label={label}
      className={cn("flex flex-wrap items-end gap-2 text-sm", className)}
    >
      {children}
      <Button type="submit" variant={submitVariant}>
        {submitLabel}
      </Button>
      {clearHref ? (
        <Link href={clearHref} className={cn(LINK_CLASS, "px-1 py-1.5")}>
          {clearLabel}
        </Link>
      ) : null}
    </form>
  );
}

/** One filter: a small label over its control. */
export function FilterField({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <label className={cn("flex min-w-0 flex-col gap-1", className)}>
      <span className="text-xs text-slate-600">{label}</span>
      {children}
    </label>
  );
}

/** A date range's two boxes, `from` and `to` (ISO dates). */
export function DateRangeFields({
  from,
  to,
  fromLabel = "From",
  toLabel = "To",
}: {
  from: string | undefined | null;
  to: string | undefined | null;
  fromLabel?: string;
  toLabel?: string;
}) {
  return (
    <>
      <FilterField label={fromLabel}>
        <Input type="date" name="from" defaultValue={from ?? ""} />
      </FilterField>
      <FilterField label={toLabel}>
        <Input type="date" name="to" defaultValue={to ?? ""} />
      </FilterField>
    </>
  );
}
