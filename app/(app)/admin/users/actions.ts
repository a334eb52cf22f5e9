"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import { saveSecondFactorRequirement, secondFactorRequirementInputSchema } from "@/lib/auth/second-factor-requirement";
import { newUserSchema } from "@/lib/users/save-user";
import {
  createUser,
  deactivateUser,
  deactivateUserInputSchema,
  resetPassword,
  resetPasswordInputSchema,
  resetSecondFactor,
  resetSecondFactorInputSchema,
  updateUser,
  updateUserInputSchema,
} from "@/lib/users/users-admin";

// User administration, for admins. Each form is read into its command's schema; the commands
// check the role again.

export const createUserAction = formAction("users:manage", newUserSchema, async ({ user, input, db }) => {
  const result = await createUser(db, user, input);
  if (result.ok) revalidatePath("/admin/users");
  return toFormState(result, "User created. Give them their password in person or by phone.");
});

export const updateUserAction = formAction("users:manage", updateUserInputSchema, async ({ user, input, db }) => {
  const result = await updateUser(db, user, input);
  if (result.ok) revalidatePath("/admin/users");
  return toFormState(result, "Saved.");
});

export const resetPasswordAction = formAction("users:manage", resetPasswordInputSchema, async ({ user, input, db }) => {
  const result = await resetPassword(db, user, input);
  return toFormState(result, "Password reset.");
});

export const deactivateUserAction = formAction(
  "users:manage",
  deactivateUserInputSchema,
  async ({ user, input, db }) => {
    const result = await deactivateUser(db, user, input);
    if (result.ok) revalidatePath("/admin/users");
    return result.ok
      ? { status: "done", message: `Deactivated; ${result.handedOver} open pulls handed over.` }
      : toFormState(result, "");
  },
);

export const resetSecondFactorAction = formAction(
  "users:manage",
  resetSecondFactorInputSchema,
  async ({ user, input, db }) => {
    const result = await resetSecondFactor(db, user, input);
    if (result.ok) revalidatePath("/admin/users");
    return result.ok
      ? {
          status: "done",
          message: result.removed
            ? "Second factor removed; their sessions ended. They set up a new one at their next sign-in."
            : "They had no second factor; their sessions ended.",
        }
      : toFormState(result, "");
  },
);

export const saveSecondFactorRequirementAction = formAction(
  "settings:manage",
  secondFactorRequirementInputSchema,
  async ({ user, input, db }) => {
    const result = await saveSecondFactorRequirement(db, user, { required: input.required ? "on" : "off" });
    if (result.ok) revalidatePath("/admin/users");
    return toFormState(
      result,
      result.ok && result.required
        ? "Saved: everyone without a second factor sets one up before anything else."
        : "Saved: a second factor is each user's choice.",
    );
  },
);
