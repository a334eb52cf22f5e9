import type { CommandResult } from "./result";

// What a workflow form shows after a submit: a confirmation, or the refusal with the field it
// concerns. Plain data, so server actions can hand it to client forms (useActionState).
export type FormState =
  | { status: "idle" }
  | { status: "done"; message: string }
  | { status: "error"; message: string; field?: string; code?: string };

export const IDLE: FormState = { status: "idle" };

export function toFormState(result: CommandResult, success: string): FormState {
  return result.ok
    ? { status: "done", message: success }
    : { status: "error", message: result.message, field: result.field, code: result.code };
}

/**
 * A submitted value as text, or undefined (absent, a file, or text holding a NUL character,
 * which no form sends and PostgreSQL refuses in any query parameter).
 */
export function formValueText(value: unknown): string | undefined {
  return typeof value === "string" && !value.includes("\u0000") ? value : undefined;
}

/** A FormData field as text, read like `formValueText`. */
export function field(formData: FormData, name: string): string | undefined {
  return formValueText(formData.get(name));
}

/** A server action behind a form (`useActionState`); pages hand it to the form as a prop. */
export type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;
