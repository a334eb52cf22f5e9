import type { ComponentProps } from "react";
import { cn } from "./class-names";
import { INPUT_CLASS } from "./input";

// A drop-down in the field style of `Input`; options are its children, as with `<select>`.

export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(INPUT_CLASS, className)} {...props} />;
}
