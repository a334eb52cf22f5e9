import type { ComponentProps } from "react";
import { cn } from "./class-names";

// A text, number or date box and a multi-line one, in the app's one field style.

export const INPUT_CLASS = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(INPUT_CLASS, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(INPUT_CLASS, className)} {...props} />;
}
