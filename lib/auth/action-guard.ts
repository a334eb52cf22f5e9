import "server-only";
import { z } from "zod";
import { getDb, rememberWrite } from "@/lib/database";
import type { Db } from "@/db/types";
import { formValueText, type FormState } from "@/lib/core/form-state";
import { allows, heldForEnrolment, type Permission } from "./route-guard";
import { getSessionUser } from "./session";
import type { Actor } from "@/lib/core/actor";

// The one way into a server action that needs a signed-in user (app/**/actions.ts):
//
//   export const setStageAction = formAction("pulls:set-stage", setStageInputSchema, async ({ user, input, db }) => …);
//
// It resolves the user from the session, asks the permission table, reads the submitted form
// into the command's own input schema (`fromForm`: the form is described once, by the command),
// and only then runs the action, which hands the parsed input to the command in lib/. A field
// the schema refuses answers the schema's message for it, as the command would. Commands check
// again, on the row itself (is this pull theirs?), and validate again: tests, the bench and
// scripts call them without a form.
//
// Where actions live: in app/**/actions.ts, beside the route that uses them (the authorization
// matrix, lib/auth/authorization-matrix.test.ts, calls each one there). Components never import
// them: the page passes each action to its form as a prop. The pull pages (whose forms sit
// inside shared panels) get theirs from app/(app)/pulls/layout.tsx through
// components/workflow/pull-actions.tsx.

export const SIGNED_OUT_MESSAGE = "Your session has ended. Sign in again.";
export const NOT_ALLOWED_MESSAGE = "You are not allowed to do that.";
export const INVALID_FORM_MESSAGE = "This form could not be read. Reload the page and try again.";
export const SECOND_FACTOR_FIRST_MESSAGE =
  "Set up a second factor first: the agency requires one. Open Security (/account/security).";

export type ActionContext<Input> = { user: Actor; input: Input; db: Db };

/** Why a guarded call did not reach the action. */
export type Refusal =
  | { reason: "signed-out" }
  | { reason: "not-allowed" }
  /** The agency requires a second factor and the user has none yet: only enrolment passes. */
  | { reason: "second-factor-required" }
  | { reason: "invalid"; message: string; field?: string };

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

/** A field's own schema under its wrappers (optional, nullable, default) and any preprocess. */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as {
    type: string;
    innerType?: z.core.$ZodType;
    in?: z.core.$ZodType;
    out?: z.core.$ZodType;
  };
  if (def.innerType) return unwrapped(def.innerType);
  if (def.type === "pipe" && def.in && def.out) {
    const read = unwrapped(def.in);
    return read._zod.def.type === "transform" ? unwrapped(def.out) : read;
  }
  return schema;
}

/** The rows' schema of a field that is a list of rows (`z.array(z.object(…))`), else null. */
function rowsOf(field: z.core.$ZodType): z.ZodObject | null {
  const inner = unwrapped(field);
  if (inner._zod.def.type !== "array") return null;
  const row = unwrapped((inner._zod.def as unknown as { element: z.core.$ZodType }).element);
  return row instanceof z.ZodObject ? row : null;
}

const isList = (field: z.core.$ZodType) => unwrapped(field)._zod.def.type === "array";

/**
 * The object a schema reads a form into: the schema itself, or the object under the transforms
 * that follow it (`z.object({…}).transform(…)`: the form's fields, read into the command's own shape).
 */
function formObject(schema: z.core.$ZodType): z.ZodObject | null {
  if (schema instanceof z.ZodObject) return schema;
  const def = schema._zod.def as { type: string; in?: z.core.$ZodType };
  return def.type === "pipe" && def.in ? formObject(def.in) : null;
}

/** The schema of a field that is an object of its own (`jumpThresholds.default`…), else null. */
function objectOf(field: z.core.$ZodType): z.ZodObject | null {
  const inner = unwrapped(field);
  return inner instanceof z.ZodObject ? inner : null;
}

/** Whether a field takes null: a `.nullable()` among its wrappers. */
function takesNull(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType };
  return def.type === "nullable" || (def.innerType !== undefined && takesNull(def.innerType));
}

/** The inputs of an object field, as the form names them (`jumpThresholds.AUTO`), by their own names. */
function submittedObject(name: string, form: SubmittedForm): SubmittedForm {
  const inner: SubmittedForm = Object.create(null);
  const prefix = `${name}.`;
  for (const [key, values] of Object.entries(form))
    if (key.startsWith(prefix)) inner[key.slice(prefix.length)] = values;
  return inner;
}

/** The numbered rows of a list field, as the form names their inputs (`rules.0.state`), in order. */
function submittedRows(name: string, form: SubmittedForm): SubmittedForm[] {
  const rows = new Map<number, SubmittedForm>();
  const prefix = `${name}.`;
  for (const [key, values] of Object.entries(form)) {
    const match = key.startsWith(prefix) ? /^(\d{1,4})\.(.+)$/.exec(key.slice(prefix.length)) : null;
    if (!match) continue;
    const row = rows.get(Number(match[1])) ?? Object.create(null);
    row[match[2] ?? ""] = values;
    rows.set(Number(match[1]), row);
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/**
 * The submitted form read into a command's input schema: each field of the schema, and nothing
 * else. A list field (`z.array`) gets every text value sent under its name, or, when it is a
 * list of rows, the numbered rows (`rules.0.state`, `rules.0.assigneeId`…), each read like the
 * form itself, a row left wholly empty left out. A field that is an object of its own gets its
 * inputs named after it (`jumpThresholds.default`, `jumpThresholds.AUTO`), read like the form
 * itself (its other keys, which the form cannot name, are not read). Any other field gets its first value, as text
 * (a file, or text holding a NUL, is not sent). A field left empty is null where the schema
 * takes null (nobody, none), else undefined where it is optional (not given), else the empty
 * string, so that the field's own message says what is missing; a field not sent at all is
 * undefined where it is optional. Numbers and booleans stay text for the schema to coerce
 * (`z.coerce`, a preprocess), so a bad one gets the field's own message too.
 */
export function fromForm(schema: z.ZodType, form: SubmittedForm): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const shape = (formObject(schema)?.shape ?? {}) as Record<string, z.core.$ZodType>;
  for (const [name, field] of Object.entries(shape)) {
    const values = form[name] ?? [];
    const rows = rowsOf(field);
    if (rows) {
      input[name] = submittedRows(name, form)
        .filter((row) => Object.values(row).some((sent) => firstText(sent)))
        .map((row) => fromForm(rows, row));
      continue;
    }
    const object = objectOf(field);
    if (object) {
      input[name] = fromForm(object, submittedObject(name, form));
      continue;
    }
    if (isList(field)) {
      input[name] = values.map(formValueText).filter((value) => value !== undefined);
      continue;
    }
    const value = firstText(values);
    const optional = field._zod.optin !== undefined;
    if (value) input[name] = value;
    else if (value === undefined && optional) continue;
    else if (takesNull(field)) input[name] = null;
    else if (!optional) input[name] = "";
  }
  return input;
}

/**
 * What the person at the form reads when a field is refused: the schema's own message for it,
 * else the app's words (a validator's default message is not for them).
 */
const fallbackMessage = (issue: z.core.$ZodRawIssue): string =>
  issue.code === "too_big" && issue.origin === "string"
    ? `Use at most ${String(issue.maximum)} characters.`
    : INVALID_FORM_MESSAGE;

/** The form parsed with the action's schema: a command's input schema, read through `fromForm`. */
function parseForm<S extends z.ZodType>(schema: S, form: SubmittedForm) {
  const input = formObject(schema) ? fromForm(schema, form) : form;
  return schema.safeParse(input, { error: fallbackMessage });
}

/** For actions that read no field. */
export const noInput = z.object({});

/** For actions that take one pull by its id (hidden in the form). */
export const pullIdInput = z.object({ pullId: z.uuid(INVALID_FORM_MESSAGE) });

async function admit<S extends z.ZodType>(
  permission: Permission,
  schema: S,
  formData: FormData | undefined,
): Promise<{ ok: true; context: ActionContext<z.output<S>> } | { ok: false; refusal: Refusal }> {
  const user = await getSessionUser();
  if (!user) return { ok: false, refusal: { reason: "signed-out" } };
  if (!allows(user, permission)) return { ok: false, refusal: { reason: "not-allowed" } };
  if (await heldForEnrolment(user, permission)) return { ok: false, refusal: { reason: "second-factor-required" } };
  const parsed = parseForm(schema, submitted(formData));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      refusal: {
        reason: "invalid",
        message: issue?.message ?? INVALID_FORM_MESSAGE,
        field: issue?.path.join(".") || undefined,
      },
    };
  }
  return { ok: true, context: { user, input: parsed.data, db: await getDb() } };
}

/**
 * Runs an admitted action, then remembers where the primary's log stands (lib/replicas/own-writes.ts):
 * this user's reports read a replica only once it has replayed what they just did. In `finally`,
 * since an action that wrote may end in redirect(), which throws.
 */
async function ranRemembered<Result>(run: () => Promise<Result>): Promise<Result> {
  try {
    return await run();
  } finally {
    await rememberWrite();
  }
}

/** The fields each guarded action reads, by the action: what a test sends it. */
const FIELDS = new WeakMap<object, readonly string[]>();

const fieldsOf = (schema: z.core.$ZodType): readonly string[] =>
  Object.entries((formObject(schema)?.shape ?? {}) as Record<string, z.core.$ZodType>).flatMap(([name, field]) => {
    // A list of rows: the inputs of its first two rows; an object: its own inputs.
    const rows = rowsOf(field);
    if (rows) return [0, 1].flatMap((i) => fieldsOf(rows).map((key) => `${name}.${i}.${key}`));
    const object = objectOf(field);
    return object ? fieldsOf(object).map((key) => `${name}.${key}`) : [name];
  });

/** The form fields a guarded action reads (its schema's keys). */
export const formFields = (action: object): readonly string[] => FIELDS.get(action) ?? [];

/** The form's answer to a refused call: the one signed-out message, or why it was refused. */
export function refusalState(refusal: Refusal): FormState {
  switch (refusal.reason) {
    case "signed-out":
      return { status: "error", message: SIGNED_OUT_MESSAGE };
    case "not-allowed":
      return { status: "error", message: NOT_ALLOWED_MESSAGE, code: "FORBIDDEN" };
    case "second-factor-required":
      return { status: "error", message: SECOND_FACTOR_FIRST_MESSAGE, code: "FORBIDDEN" };
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
  const action = async (_previous: State, formData?: FormData) => {
    const admitted = await admit(permission, schema, formData);
    return admitted.ok ? ranRemembered(() => run(admitted.context)) : refusalState(admitted.refusal);
  };
  FIELDS.set(action, fieldsOf(schema));
  return action;
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
  const action = async (formData?: FormData) => {
    const admitted = await admit(permission, schema, formData);
    return admitted.ok ? ranRemembered(() => run(admitted.context)) : refused(admitted.refusal);
  };
  FIELDS.set(action, fieldsOf(schema));
  return action;
}
