"use client";

import type { FormAction } from "@/lib/core/form-state";
import { ActionForm } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// The offices page's forms and the users page's office choice: plain forms through the kit's
// ActionForm, each answered by a server action that asks the permission table again.

const NAME_MAX = 80;

export function CreateOfficeForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} inline submitLabel="Add office" aria-label="Add an office">
      <label>
        <span className="sr-only">Office name</span>
        <Input name="name" required maxLength={NAME_MAX} placeholder="Office name" />
      </label>
    </ActionForm>
  );
}

export function RenameOfficeForm({ id, name, action }: { id: string; name: string; action: FormAction }) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Rename">
      <input type="hidden" name="id" value={id} />
      <label>
        <span className="sr-only">Name of {name}</span>
        <Input name="name" required maxLength={NAME_MAX} defaultValue={name} />
      </label>
    </ActionForm>
  );
}

export function DeleteOfficeForm({ id, name, action }: { id: string; name: string; action: FormAction }) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Delete" aria-label={`Delete ${name}`}>
      <input type="hidden" name="id" value={id} />
    </ActionForm>
  );
}

export function UserOfficeForm({
  userId,
  officeId,
  offices,
  action,
}: {
  userId: string;
  officeId: string | null;
  offices: Array<{ id: string; name: string }>;
  action: FormAction;
}) {
  return (
    <ActionForm action={action} inline submitVariant="secondary" submitLabel="Save office">
      <input type="hidden" name="userId" value={userId} />
      <label>
        <span className="sr-only">Office</span>
        <Select name="officeId" defaultValue={officeId ?? ""}>
          <option value="">Agency-wide</option>
          {offices.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </Select>
      </label>
    </ActionForm>
  );
}
