"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/database";
import { getSessionUser } from "@/lib/auth/session";
import { field, toFormState, type FormState } from "@/lib/workflow/form-state";
import { createUser, deactivateUser, resetPassword, updateUser } from "@/lib/users/users-admin";

// User administration. The commands check that the actor is an admin; these only bridge forms.

const SIGNED_OUT: FormState = { status: "error", message: "Your session has ended. Sign in again." };

export async function createUserAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const result = await createUser(await getDb(), user, {
    email: field(formData, "email") ?? "",
    name: field(formData, "name") ?? "",
    role: field(formData, "role") ?? "",
    password: field(formData, "password") ?? "",
  });
  if (result.ok) revalidatePath("/admin/users");
  return toFormState(result, "User created. Give them their password in person or by phone.");
}

export async function updateUserAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const result = await updateUser(await getDb(), user, { userId: field(formData, "userId") ?? "", role: field(formData, "role") || undefined, name: field(formData, "name") || undefined });
  if (result.ok) revalidatePath("/admin/users");
  return toFormState(result, "Saved.");
}

export async function resetPasswordAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const result = await resetPassword(await getDb(), user, { userId: field(formData, "userId") ?? "", password: field(formData, "password") ?? "" });
  return toFormState(result, "Password reset.");
}

export async function deactivateUserAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const user = await getSessionUser();
  if (!user) return SIGNED_OUT;
  const result = await deactivateUser(await getDb(), user, { userId: field(formData, "userId") ?? "", handoverTo: field(formData, "handoverTo") || null });
  if (result.ok) revalidatePath("/admin/users");
  return result.ok ? { status: "done", message: `Deactivated; ${result.handedOver} open pulls handed over.` } : toFormState(result, "");
}
