"use client";

import { startTransition, useActionState, useId } from "react";
import { FormMessage } from "./form-message";
import { IDLE, type FormAction, type FormState } from "@/lib/core/form-state";
import { Button, type ButtonSize, type ButtonVariant } from "./button";

// The one form that posts to a server action and shows what it answered: the action runs through
// `useActionState`, the submit button says it is working while it runs, and the outcome shows
// beside it (role "status", or "alert" for a refusal). The fields are the children; a child can
// be a function of the answer, whose `invalid(name)` marks the field a refusal names (invalid,
// and described by the message).

/** What a function child gets: the last answer, and the attributes of the field it refuses. */
export type ActionFormRender = {
  state: FormState;
  invalid: (name: string) => { "aria-invalid"?: true; "aria-describedby"?: string };
};

export function ActionForm({
  action: run,
  submitLabel,
  pendingLabel = submitLabel,
  submitVariant = "primary",
  submitSize = "md",
  submitDisabled = false,
  keepValues = false,
  inline = false,
  className = inline ? "flex flex-wrap items-center gap-2" : "space-y-2",
  children,
  ...form
}: Omit<React.ComponentProps<"form">, "action" | "onSubmit" | "children" | "className"> & {
  action: FormAction;
  submitLabel: React.ReactNode;
  /** What the button says while the action runs ("Saving…"); by default its label. */
  pendingLabel?: React.ReactNode;
  submitVariant?: ButtonVariant;
  submitSize?: ButtonSize;
  /** Disabled besides while saving (nothing changed yet, say). */
  submitDisabled?: boolean;
  /**
   * Keep what was typed or chosen while saving. React resets a form after an `action` submit,
   * which would put a choice back to the old value while the new one is being saved; such a form
   * is submitted by hand once hydrated (before that, the plain `action` still posts it).
   */
  keepValues?: boolean;
  /** Fields, button and message on one line (a row's controls), rather than the button under the fields. */
  inline?: boolean;
  className?: string;
  children?: React.ReactNode | ((form: ActionFormRender) => React.ReactNode);
}) {
  const [state, action, pending] = useActionState(run, IDLE);
  const messageId = useId();
  const invalid = (name: string) =>
    state.status === "error" && state.field === name
      ? { "aria-invalid": true as const, "aria-describedby": messageId }
      : {};
  const submit = (
    <Button type="submit" variant={submitVariant} size={submitSize} disabled={pending || submitDisabled}>
      {pending ? pendingLabel : submitLabel}
    </Button>
  );
  const message = <FormMessage state={state} id={messageId} />;
  return (
    <form
      action={action}
      onSubmit={
        keepValues
          ? (event) => {
              event.preventDefault();
              const data = new FormData(event.currentTarget);
              startTransition(() => action(data));
            }
          : undefined
      }
      className={className || undefined}
      {...form}
    >
      {typeof children === "function" ? children({ state, invalid }) : children}
      {inline ? (
        <>
          {submit}
          {message}
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {submit}
          {message}
        </div>
      )}
    </form>
  );
}
