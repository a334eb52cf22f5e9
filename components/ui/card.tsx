import type { HTMLAttributes } from "react";
import { cn } from "./class-names";

// A white panel with a thin border: a section of a page, a form, a summary.

export const CARD_CLASS = "rounded-lg border border-slate-200 bg-white";

export function Card({
  as: Tag = "section",
  padded = true,
  className,
  ...props
}: HTMLAttributes<HTMLElement> & { as?: "section" | "div"; padded?: boolean }) {
  return <Tag className={cn(CARD_CLASS, padded && "p-4", className)} {...props} />;
}
