"use server";

import { revalidatePath } from "next/cache";
import { formAction, guardedAction, noInput, refusalState } from "@/lib/auth/action-guard";
import {
  registerPasskey,
  registerPasskeyInputSchema,
  removePasskey,
  removePasskeyInputSchema,
  startPasskeyRegistration,
  type PasskeyOptionsAnswer,
} from "@/lib/auth/passkeys";
import { toFormState } from "@/lib/core/form-state";
import {
  confirmSecondFactor,
  removeSecondFactor,
  renewRecoveryCodes,
  secondFactorCodeInputSchema,
  startSecondFactor,
  type RecoveryCodesState,
} from "@/lib/auth/second-factor";

// One's own second factor: every signed-in user may set up, confirm or remove theirs, never
// anyone else's (the commands take the actor's id, nothing from the form). Each is audited.
// Setting one up ("enrolment") stays open to a user the agency requires to have one first.

export const startSecondFactorAction = formAction("enrolment", noInput, async ({ user, db }) => {
  const result = await startSecondFactor(db, user);
  if (result.ok) revalidatePath("/account/security");
  return toFormState(result, "Scan the QR code with your authenticator app.");
});

// No revalidation: the page would redraw without the recovery codes, which are shown only in this answer.
export const confirmSecondFactorAction = formAction<typeof secondFactorCodeInputSchema, RecoveryCodesState>(
  "enrolment",
  secondFactorCodeInputSchema,
  async ({ user, input, db }) => {
    const result = await confirmSecondFactor(db, user, input);
    if (!result.ok) return toFormState(result, "");
    return {
      status: "done",
      message: "Your authenticator app is on: sign-in asks for its code from now on.",
      recoveryCodes: result.recoveryCodes,
    };
  },
);

export const removeSecondFactorAction = formAction(
  "signed-in",
  secondFactorCodeInputSchema,
  async ({ user, input, db }) => {
    const result = await removeSecondFactor(db, user, input);
    if (result.ok) revalidatePath("/account/security");
    return toFormState(result, "Sign-in with an authenticator app is off.");
  },
);

// No revalidation, as for confirming: the new codes are shown only in this answer.
export const renewRecoveryCodesAction = formAction<typeof secondFactorCodeInputSchema, RecoveryCodesState>(
  "signed-in",
  secondFactorCodeInputSchema,
  async ({ user, input, db }) => {
    const result = await renewRecoveryCodes(db, user, input);
    if (!result.ok) return toFormState(result, "");
    return {
      status: "done",
      message: "New recovery codes: the old ones no longer work.",
      recoveryCodes: result.recoveryCodes,
    };
  },
);

// Passkeys: the browser asks for options, makes the passkey, and sends its answer with a name.
// Adding one is enrolment too; removing one is an ordinary change of one's own sign-in.
export const startPasskeyAction = guardedAction(
  "enrolment",
  noInput,
  (refusal): PasskeyOptionsAnswer => {
    const state = refusalState(refusal);
    return { ok: false, message: "message" in state ? state.message : "" };
  },
  async ({ user, db }): Promise<PasskeyOptionsAnswer> => ({
    ok: true,
    options: await startPasskeyRegistration(db, user),
  }),
);

export const registerPasskeyAction = formAction(
  "enrolment",
  registerPasskeyInputSchema,
  async ({ user, input, db }) => {
    const result = await registerPasskey(db, user, input);
    if (result.ok) revalidatePath("/account/security");
    return toFormState(result, "Passkey added: sign-in takes it instead of a code from now on.");
  },
);

export const removePasskeyAction = formAction("signed-in", removePasskeyInputSchema, async ({ user, input, db }) => {
  const result = await removePasskey(db, user, input);
  if (result.ok) revalidatePath("/account/security");
  return toFormState(result, "Passkey removed.");
});
