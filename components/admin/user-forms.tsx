"use client";

import type { FormAction } from "@/lib/core/form-state";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// The admin's user forms. Each posts to a server action that re-checks the admin role; the
// actions come from the page as props.

const ROLE_OPTIONS = [
  { value: "AGENT", label: "Agent" },
  { value: "MANAGER", label: "Manager" },
  { value: "ADMIN", label: "Admin" },
];

export function CreateUserForm({ action }: { action: FormAction }) {
  return (
    <ActionForm
      action={action}
      aria-label="Create a user"
      className={cn(CARD_CLASS, "grid gap-3 p-4 sm:grid-cols-5")}
      messageClassName="sm:col-span-5"
    >
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-xs text-slate-600">Name</span>
        <Input name="name" required maxLength={120} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-xs text-slate-600">Email</span>
        <Input name="email" type="email" required />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-xs text-slate-600">Role</span>
        <Select name="role" defaultValue="AGENT">
          {ROLE_OPTIONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-xs text-slate-600">Password (12 to 72 characters)</span>
        <Input name="password" type="password" required minLength={12} autoComplete="new-password" />
      </label>
      <div className="flex items-end">
        <SubmitButton pendingLabel="Creating…">Create user</SubmitButton>
      </div>
    </ActionForm>
  );
}

export function RoleForm({ userId, role, action }: { userId: string; role: string; action: FormAction }) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Save role">
      <input type="hidden" name="userId" value={userId} />
      <label>
        <span className="sr-only">Role</span>
        <Select name="role" defaultValue={role}>
          {ROLE_OPTIONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      </label>
    </ActionForm>
  );
}

export function ResetPasswordForm({ userId, action }: { userId: string; action: FormAction }) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Reset">
      <input type="hidden" name="userId" value={userId} />
      <label>
        <span className="sr-only">New password</span>
        <Input
          name="password"
          type="password"
          required
          minLength={12}
          placeholder="New password"
          autoComplete="new-password"
          className="w-40"
        />
      </label>
    </ActionForm>
  );
}

export function DeactivateForm({
  userId,
  colleagues,
  action,
}: {
  userId: string;
  colleagues: Array<{ id: string; name: string }>;
  action: FormAction;
}) {
  return (
    <ActionForm action={action} inline submitVariant="danger" submitLabel="Deactivate">
      <input type="hidden" name="userId" value={userId} />
      <label>
        <span className="sr-only">Hand open pulls to</span>
        <Select name="handoverTo" defaultValue="">
          <option value="">Open pulls back to the queue</option>
          {colleagues
            .filter((c) => c.id !== userId)
            .map((c) => (
              <option key={c.id} value={c.id}>
                Open pulls to {c.name}
              </option>
            ))}
        </Select>
      </label>
    </ActionForm>
  );
}

/** Removes a user's second factors: their app and recovery codes, their passkeys. */
export function ResetSecondFactorForm({ userId, name, action }: { userId: string; name: string; action: FormAction }) {
  return (
    <ActionForm
      action={action}
      inline
      submitVariant="danger"
      submitLabel="Reset second factor"
      aria-label={`Reset ${name}'s second factor`}
    >
      <input type="hidden" name="userId" value={userId} />
    </ActionForm>
  );
}

/** The agency's setting: every user must have a second factor (production requires it anyway). */
export function SecondFactorRequirementForm({ required, action }: { required: boolean; action: FormAction }) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Save" aria-label="Second factor rule">
      <label className="flex items-center gap-2 text-sm">
        <span className="sr-only">Require a second factor</span>
        <Select name="required" defaultValue={required ? "on" : "off"}>
          <option value="off">Not required (each user chooses)</option>
          <option value="on">Required for every user</option>
        </Select>
      </label>
    </ActionForm>
  );
}
