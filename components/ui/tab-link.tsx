import Link from "next/link";
import { cn } from "./class-names";

// One of a row of links that switch a list's view ("Open", "Snoozed"; "30 days", "90 days"): the
// current one filled in the brand, marked `aria-current`, the others plain (or `boxed`, when
// they stand alone on a line and must read as controls).

export function TabLink({
  current,
  currentAs = "page",
  boxed = false,
  className,
  ...props
}: React.ComponentProps<typeof Link> & {
  current: boolean;
  /** What `aria-current` says of the current link: the page itself, or one choice of several. */
  currentAs?: "page" | "true";
  boxed?: boolean;
}) {
  return (
    <Link
      aria-current={current ? currentAs : undefined}
      className={cn(
        "rounded-md px-3 py-1.5",
        current
          ? "bg-brand-700 font-medium text-white"
          : cn("text-slate-700 hover:bg-slate-100", boxed && "border border-slate-300 bg-white"),
        className,
      )}
      {...props}
    />
  );
}
