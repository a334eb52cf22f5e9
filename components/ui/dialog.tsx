"use client";

import * as Radix from "@radix-ui/react-dialog";
import { useFormPending } from "./action-form";
import { Button } from "./button";
import { cn } from "./class-names";

// A modal dialog (Radix: focus kept inside, Escape and a click outside close it, the page
// behind is hidden from screen readers and does not scroll), for a step that must be answered
// before going on: confirming a charge, say. `Dialog` holds the open state (controlled with
// `open`/`onOpenChange`, or not), `DialogTrigger asChild` wraps the kit's button that opens it,
// `DialogContent` draws the overlay and the panel with its title, `DialogClose asChild` a button
// that closes it.
//
// The panel is drawn in place, not moved to the end of the page: it is fixed over the page all
// the same, and it stays inside the section that opened it, so that section's labels, test ids
// and live messages still contain it.

export const Dialog = Radix.Root;
export const DialogTrigger = Radix.Trigger;
export const DialogClose = Radix.Close;

export function DialogContent({
  title,
  description,
  className,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Radix.Content>, "title"> & {
  /** The dialog's name, shown as its heading. */
  title: React.ReactNode;
  /** A line under the title that describes it to screen readers; without it none is linked. */
  description?: React.ReactNode;
}) {
  return (
    <>
      <Radix.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
      <Radix.Content
        {...(description ? {} : { "aria-describedby": undefined })}
        className={cn(
          "fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 space-y-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-5 shadow-lg",
          className,
        )}
        {...props}
      >
        <Radix.Title className="text-lg font-semibold text-slate-900">{title}</Radix.Title>
        {description ? <Radix.Description className="text-sm text-slate-700">{description}</Radix.Description> : null}
        {children}
      </Radix.Content>
    </>
  );
}

/** A dialog form's Cancel: closes the dialog without answering; not while the form is on its way. */
export function DialogCancelButton() {
  const pending = useFormPending();
  return (
    <Radix.Close asChild>
      <Button variant="secondary" disabled={pending}>
        Cancel
      </Button>
    </Radix.Close>
  );
}
