"use server";

import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/auth/action-guard";
import { createApiKey, createApiKeyInputSchema, revokeApiKey, revokeApiKeyInputSchema } from "@/lib/api/keys";
import { toFormState, type FormState } from "@/lib/core/form-state";

// The API keys page, for admins: make a key (its secret is in this one answer, shown once) or
// revoke one (its next call is refused).

export type ApiKeyFormState = FormState & { key?: string };

export const createApiKeyAction = formAction(
  "api-keys:manage",
  createApiKeyInputSchema,
  async ({ user, input, db }): Promise<ApiKeyFormState> => {
    const made = await createApiKey(db, input, user);
    if (!made.ok) return toFormState(made, "");
    revalidatePath("/admin/api-keys");
    return {
      status: "done",
      message: `The key "${made.name}" is made. Copy it now: it is shown once, and Coverdesk keeps only its hash.`,
      key: made.key,
    };
  },
);

export const revokeApiKeyAction = formAction(
  "api-keys:manage",
  revokeApiKeyInputSchema,
  async ({ user, input, db }): Promise<FormState> => {
    const revoked = await revokeApiKey(db, input, user);
    if (revoked.ok) revalidatePath("/admin/api-keys");
    return toFormState(revoked, revoked.ok ? `The key "${revoked.name}" is revoked.` : "");
  },
);
