"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction } from "@/lib/auth/action-guard";
import { toFormState } from "@/lib/core/form-state";
import {
  createOffice,
  deleteOffice,
  officeInputSchema,
  officeRenameSchema,
  renameOffice,
  setUserOffice,
  userOfficeSchema,
} from "@/lib/users/offices";

// The agency's offices and who is in which, for admins. Each command checks the permission again.

function saved() {
  revalidatePath("/admin/offices");
  revalidatePath("/admin/users");
}

export const createOfficeAction = formAction("offices:manage", officeInputSchema, async ({ user, input, db }) => {
  const result = await createOffice(db, user, input);
  if (result.ok) saved();
  return toFormState(result, "Office added.");
});

export const renameOfficeAction = formAction("offices:manage", officeRenameSchema, async ({ user, input, db }) => {
  const result = await renameOffice(db, user, input);
  if (result.ok) saved();
  return toFormState(result, "Renamed.");
});

export const deleteOfficeAction = formAction(
  "offices:manage",
  z.object({ id: z.uuid("Unknown office.") }),
  async ({ user, input, db }) => {
    const result = await deleteOffice(db, user, input);
    if (result.ok) saved();
    return toFormState(result, "Office deleted.");
  },
);

export const setUserOfficeAction = formAction("offices:manage", userOfficeSchema, async ({ user, input, db }) => {
  const result = await setUserOffice(db, user, input);
  if (result.ok) saved();
  return toFormState(result, "Saved. Their pulls moved with them.");
});
