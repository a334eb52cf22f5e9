"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, formTextOrEmpty, formTextOrNull, formTextOrUndefined } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import { createUser, deactivateUser, resetPassword, updateUser } from "@/lib/users/users-admin";

// User administration, for admins. The commands validate the values and check the role again.

const createInput = z.object({
  email: formTextOrEmpty(),
  name: formTextOrEmpty(),
  role: formTextOrEmpty(),
  password: formTextOrEmpty(),
});

export const createUserAction = formAction("users:manage", createInput, async ({ user, input, db }) => {
  const result = await createUser(db, user, input);
  if (result.ok) revalidatePath("/admin/users");
  return toFormState(result, "User created. Give them their password in person or by phone.");
});

export const updateUserAction = formAction(
  "users:manage",
  z.object({ userId: formTextOrEmpty(), role: formTextOrUndefined(), name: formTextOrUndefined() }),
  async ({ user, input, db }) => {
    const result = await updateUser(db, user, input);
    if (result.ok) revalidatePath("/admin/users");
    return toFormState(result, "Saved.");
  },
);

export const resetPasswordAction = formAction(
  "users:manage",
  z.object({ userId: formTextOrEmpty(), password: formTextOrEmpty() }),
  async ({ user, input, db }) => {
    const result = await resetPassword(db, user, input);
    return toFormState(result, "Password reset.");
  },
);

export const deactivateUserAction = formAction(
  "users:manage",
  z.object({ userId: formTextOrEmpty(), handoverTo: formTextOrNull() }),
  async ({ user, input, db }) => {
    const result = await deactivateUser(db, user, input);
    if (result.ok) revalidatePath("/admin/users");
    return result.ok
      ? { status: "done", message: `Deactivated; ${result.handedOver} open pulls handed over.` }
      : toFormState(result, "");
  },
);
