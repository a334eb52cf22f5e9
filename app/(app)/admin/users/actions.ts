"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import { newUserSchema } from "@/lib/users/save-user";
import {
  createUser,
  deactivateUser,
  deactivateUserInputSchema,
  resetPassword,
  resetPasswordInputSchema,
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
