import type { ComponentProps } from "react";
import { cn } from "./class-names";

// The app's buttons: one look per meaning. `buttonClass` styles a link that acts as a button
// (`<Link className={buttonClass()}>`), so both read the same.

const VARIANTS = {
  primary: "rounded-md bg-brand-700 font-medium text-white hover:bg-brand-900",
  secondary: "rounded-md border border-slate-300 bg-white hover:bg-slate-100",
  /** Removes or ends something: outlined in red, never the filled primary. */
  danger: "rounded-md border border-red-300 bg-white text-red-700 hover:bg-red-50",
  /** A small action among words ("Use a recovery code"): reads as a link, is a button. */
  link: "text-brand-700 underline hover:text-brand-900",
} as const;

const SIZES = {
  md: "px-3 py-1.5 text-sm",
  sm: "px-2 py-1 text-xs",
  /** The consumer pages' full-width buttons (sign in, confirm, reconnect). */
  lg: "px-4 py-2 text-base font-semibold",
  /** No padding: a `link` button inside a line of text. */
  inline: "text-sm",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

export function buttonClass({
  variant = "primary",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(VARIANTS[variant], SIZES[size], "disabled:opacity-50", className);
}

export function Button({
  variant,
  size,
  className,
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}
