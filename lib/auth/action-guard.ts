import "server-only";
import { z } from "zod";
import { getDb } from "@/lib/database";
import type { Db } from "@/db/types";
import { formValueText, type FormState } from "@/lib/core/form-state";
import { allows, type Permission } from "./route-guard";
import { getSessionUser, type SessionUser } from "./session";

// The one way into a server action that needs a signed-in user (app/**/actions.ts):
//
//   export const setStageAction = formAction("pulls:set-stage", stageInput, async ({ user, input, db }) => …);
//
// It resolves the user from the session, reads the submitted form through a zod schema, asks the
// permission table, and only then runs the action, which hands the input to a command in lib/.
// Commands check again, on the row itself (is this pull theirs?), and validate the values: the
// schema here only says which fields the form sends and how they are read.
//
// Where actions live: in app/**/actions.ts, beside the route that uses them (the authorization
// matrix, lib/auth/authorization-matrix.test.ts, calls each one there). Components never import
// them: the page passes each action to its form as a prop. The pull pages (whose forms sit
// inside shared panels) get theirs from app/(app)/pulls/layout.tsx through
// components/workflow/pull-actions.tsx.

export const SIGNED_OUT_MESSAGE = "Your session has ended. Sign in again.";
export const NOT_ALLOWED_MESSAGE = "You are not allowed to do that.";
export const INVALID_FORM_MESSAGE = "This form could not be read. Reload the page and try again.";

export type ActionContext<Input> = { user: SessionUser; input: Input; db: Db };

/** Why a guarded call did not reach the action. */
export type Refusal =
  { reason: "signed-out" } | { reason: "not-allowed" } | { reason: "invalid"; message: string; field?: string };

/** Each submitted field, as every value the form sent under that name (in order): what the schema reads. */
export type SubmittedForm = Record<string, FormDataEntryValue[]>;

function submitted(formData: FormData | undefined): SubmittedForm {
  // No prototype: a field named "__proto__" or "constructor" is just a field.
  const form: SubmittedForm = Object.create(null);
  formData?.forEach((value, name) => {
    (form[name] ??= []).push(value);
  });
  return form;
}

/** A field's first value, read as `field` reads one (a file or text holding a NUL is absent). */
const firstText = (values: unknown): string | undefined => formValueText(Array.isArray(values) ? values[0] : undefined);

const textField = () => z.preprocess(firstText, z.string().optional());

/**
 * One text field: its first value, or undefined. The key is always in the parsed input (the
 * transform keeps zod from making it optional), as the commands' inputs expect.
 */
export const formText = () => textField().transform((value) => value);

/** One text field where empty means "none": null when absent or empty. */
export const formTextOrNull = () => textField().transform((value) => value || null);

/** One text field where empty means "not given": undefined when absent or empty. */
export const formTextOrUndefined = () => textField().transform((value) => value || undefined);

/** A required field as the command expects it: the empty string when absent (the command then says what is missing). */
export const formTextOrEmpty = () => textField().transform((value) => value ?? "");

/** Every text value sent under a repeated name (e.g. ticked checkboxes). */
export const formList = () =>
  z.preprocess(
    (values) => (Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : []),
    z.array(z.string()),
  );

/** The first text value of `name` in a submitted form, read like `formText()`. */
export const submittedText = (form: SubmittedForm, name: string): string | undefined => firstText(form[name]);

/** The whole submitted form, for inputs whose field names are not fixed (numbered rows); read it with `submittedText`. */
export const submittedForm = () => z.custom<SubmittedForm>((value) => typeof value === "object" && value !== null);

/** For actions that read no field. */
export const noInput = z.object({});

async function admit<S extends z.ZodType>(
  permission: Permission,
  schema: S,
  formData: FormData | undefined,
): Promise<{ ok: true; context: ActionContext<z.output<S>> } | { ok: false; refusal: Refusal }> {
  const user = await getSessionUser();
  if (!user) return { ok: false, refusal: { reason: "signed-out" } };
  if (!allows(user, permission)) return { ok: false, refusal: { reason: "not-allowed" } };
  const parsed = schema.safeParse(submitted(formData));
  if (!parsed.success) {
    // The app's own words: a validator's message is not for the person at the form.
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      refusal: { reason: "invalid", message: INVALID_FORM_MESSAGE, field: issue?.path.join(".") || undefined },
    };
  }
  return { ok: true, context: { user, input: parsed.data, db: await getDb() } };
}

/** The form's answer to a refused call: the one signed-out message, or why it was refused. */
export function refusalState(refusal: Refusal): FormState {
  switch (refusal.reason) {
    case "signed-out":
      return { status: "error", message: SIGNED_OUT_MESSAGE };
    case "not-allowed":
      return { status: "error", message: NOT_ALLOWED_MESSAGE, code: "FORBIDDEN" };
    case "invalid":
      return { status: "error", message: refusal.message, field: refusal.field, code: "INVALID" };
  }
}

/**
 * A form action for `useActionState`: (previous state, form data) → the state the form shows.
 * `State` may extend FormState with more of the action's answer (e.g. a secret shown once).
 */
export function formAction<S extends z.ZodType, State extends FormState = FormState>(
  permission: Permission,
  schema: S,
  run: (context: ActionContext<z.output<S>>) => Promise<State>,
): (previous: State, formData?: FormData) => Promise<State | FormState> {
  return async (_previous, formData) => {
    const admitted = await admit(permission, schema, formData);
    return admitted.ok ? run(admitted.context) : refusalState(admitted.refusal);
  };
}

/**
 * An action whose caller reads its own kind of answer (or none: a plain `<form action>`):
 * a refused call answers `refused(refusal)` and runs nothing.
 */
export function guardedAction<S extends z.ZodType, Result>(
  permission: Permission,
  schema: S,
  refused: (refusal: Refusal) => Result,
  run: (context: ActionContext<z.output<S>>) => Promise<Result>,
): (formData?: FormData) => Promise<Result> {
  return async (formData) => {
    const admitted = await admit(permission, schema, formData);
    return admitted.ok ? run(admitted.context) : refused(admitted.refusal);
  };
}
