"use client";

import { useId } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { FormAction } from "@/lib/core/form-state";

// Opens a consumer's request for the pulls the search found: what they asked for, the day it was
// received (the 45-day clock runs from it), and the agency's own reference.
export function OpenRequestForm({ action, pullIds, today }: { action: FormAction; pullIds: string[]; today: string }) {
  const id = useId();
  return (
    <ActionForm
      action={action}
      keepValues
      submitLabel="Open the request"
      pendingLabel="Opening…"
      data-testid="open-request"
    >
      {({ invalid }) => (
        <div className="grid gap-3 sm:grid-cols-3">
          {pullIds.map((pullId) => (
            <input key={pullId} type="hidden" name="pullIds" value={pullId} />
          ))}
          <Field id={`${id}-kind`} label="They ask for">
            {(control) => (
              <Select {...control} {...invalid("kind")} name="kind" defaultValue="ACCESS" className="mt-1 block w-full">
                <option value="ACCESS">A copy of their data (access)</option>
                <option value="ERASURE">Erasure of their data</option>
              </Select>
            )}
          </Field>
          <Field id={`${id}-received`} label="Received on" hint="The 45 days run from this day.">
            {(control) => (
              <Input
                {...control}
                {...invalid("receivedOn")}
                type="date"
                name="receivedOn"
                defaultValue={today}
                max={today}
                required
                className="mt-1 block w-full"
              />
            )}
          </Field>
          <Field
            id={`${id}-reference`}
            label="Reference (optional)"
            hint="Your ticket number: not their name or email."
          >
            {(control) => (
              <Input
                {...control}
                {...invalid("reference")}
                name="reference"
                maxLength={80}
                autoComplete="off"
                className="mt-1 block w-full"
              />
            )}
          </Field>
        </div>
      )}
    </ActionForm>
  );
}
