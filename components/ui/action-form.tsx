"use client";

import { createContext, startTransition, use, useActionState, useEffect, useEffectEvent, useId } from "react";
import { FormMessage } from "./form-message";
import { IDLE, type FormState } from "@/lib/core/form-state";
import { Button, type ButtonSize, type ButtonVariant } from "./button";

// The one form that posts to a server action and shows what it answered: the action runs through
// `useActionState`, the submit button says it is working while it runs, and the outcome shows
// beside it (role "status", or "alert" for a refusal). The fields are the children; a child can
// be a function of the answer, whose `invalid(name)` marks the field a refusal names (invalid,
// and described by the message). A form with several submit buttons (an `intent` each), or whose
// button sits among its fields, leaves out `submitLabel` and places `SubmitButton`s itself.

/** What a function child gets: the last answer, and the attributes of the field it refuses. */
export type ActionFormRender<S extends FormState = FormState> = {
  state: S;
  invalid: (name: string) => { "aria-invalid"?: true; "aria-describedby"?: string };
};

const Pending = createContext(false);

/** Whether the enclosing `ActionForm`'s action is running: for its other buttons (Cancel). */
export function useFormPending(): boolean {
  return use(Pending);
}

/** A submit button of an `ActionForm`: disabled, and saying `pendingLabel` if given, while the form's action runs. */
export function SubmitButton({
  pendingLabel,
  disabled,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "type"> & { pendingLabel?: React.ReactNode }) {
  const pending = use(Pending);
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </Button>
  );
}

export function ActionForm<S extends FormState = FormState>({
  action: run,
  submitLabel,
  pendingLabel = submitLabel,
  submitVariant = "primary",
  submitSize = "md",
  submitDisabled = false,
  submitClassName,
  besideSubmit,
  keepValues = false,
  inline = false,
  onAnswer,
  errorsOnly = false,
  messageClassName,
  className = inline ? "flex flex-wrap items-center gap-2" : "space-y-2",
  children,
  ...form
}: Omit<React.ComponentProps<"form">, "action" | "onSubmit" | "children" | "className"> & {
  action: (previous: S, formData: FormData) => Promise<S>;
  /** The one submit button's label; without it the children place their own `SubmitButton`s. */
  submitLabel?: React.ReactNode;
  /** What the button says while the action runs ("Saving…"); by default its label. */
  pendingLabel?: React.ReactNode;
  submitVariant?: ButtonVariant;
  submitSize?: ButtonSize;
  /** Disabled besides while saving (nothing changed yet, say). */
  submitDisabled?: boolean;
  submitClassName?: string;
  /** Drawn after the submit button (a Cancel). */
  besideSubmit?: React.ReactNode;
  /**
   * Keep what was typed or chosen while saving. React resets a form after an `action` submit,
   * which would put a choice back to the old value while the new one is being saved; such a form
   * is submitted by hand once hydrated (before that, the plain `action` still posts it).
   */
  keepValues?: boolean;
  /** Fields, button and message on one line (a row's controls), rather than the button under the fields. */
  inline?: boolean;
  /** Called with each answer once it shows (to refresh the page, or to lift a value out of it). */
  onAnswer?: (state: S) => void;
  /** Show a refusal only: a form whose success is the page's next render. */
  errorsOnly?: boolean;
  /** The message in a box of its own (a grid form's full-width row, say). */
  messageClassName?: string;
  className?: string;
  children?: React.ReactNode | ((form: ActionFormRender<S>) => React.ReactNode);
}) {
  const [state, action, pending] = useActionState<S, FormData>(run, IDLE as Awaited<S>);
  const messageId = useId();
  const answered = useEffectEvent((answer: S) => onAnswer?.(answer));
  useEffect(() => {
    if (state.status !== "idle") answered(state);
  }, [state]);
  const invalid = (name: string) =>
    state.status === "error" && state.field === name
      ? { "aria-invalid": true as const, "aria-describedby": messageId }
      : {};
  const submit =
    submitLabel === undefined ? null : (
      <SubmitButton
        variant={submitVariant}
        size={submitSize}
        disabled={submitDisabled}
        pendingLabel={pendingLabel}
        className={submitClassName}
      >
        {submitLabel}
      </SubmitButton>
    );
  const shown: FormState = errorsOnly && state.status !== "error" ? IDLE : state;
  const message = messageClassName ? (
    <div className={messageClassName}>
      <FormMessage state={shown} id={messageId} />
    </div>
  ) : (
    <FormMessage state={shown} id={messageId} />
  );
  return (
    <Pending value={pending}>
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
        {inline || !submit ? (
          <>
            {submit}
            {besideSubmit}
            {message}
          </>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            {submit}
            {besideSubmit}
            {message}
          </div>
        )}
      </form>
    </Pending>
  );
}
