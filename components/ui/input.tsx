import type { ComponentProps } from "react";
import { cn } from "./class-names";

// A text, number or date box and a multi-line one, in the app's one field style. `large` is
// the consumer pages' full-width box (sign in, reconnect): bigger text, a focus ring in the brand.

export const INPUT_CLASS = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
const LARGE_INPUT_CLASS =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none";

export function Input({ className, large = false, ...props }: ComponentProps<"input"> & { large?: boolean }) {
  return <input className={cn(large ? LARGE_INPUT_CLASS : INPUT_CLASS, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(INPUT_CLASS, className)} {...props} />;
}
