"use client";

import { startTransition, useActionState, useId, useState } from "react";
import { FormMessage } from "@/components/ui/form-message";
import type { ServicingActionType } from "@/lib/service/schemas";
import type { ServicingTargets } from "@/lib/servicing/payloads";
import { MORTGAGEE_POSITIONS, SERVICING_ACTION_LABELS } from "@/lib/servicing/words";
import { IDLE, type FormAction } from "@/lib/workflow/form-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// The agent's request for a change at the carrier: one form, its fields following the change
// chosen. Every field is checked again on the server (lib/servicing/payloads.ts), which names the
// field it refuses; the form keeps what was typed until the request is sent.

const POSITION_WORDS: Record<string, string> = { FIRST: "First", SECOND: "Second", THIRD: "Third" };

type Props = {
  pullId: string;
  actions: ServicingActionType[];
  targets: ServicingTargets;
  action: FormAction;
};

function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error: string | null;
  hint?: string;
  children: (props: { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const id = `${useId()}-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm text-slate-700">
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": hint ? `${id}-hint` : undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function ServicingRequestForm({ pullId, actions, targets, action: request }: Props) {
  const [type, setType] = useState<ServicingActionType>(actions[0] ?? "ADD_MORTGAGEE");
  const [state, action, pending] = useActionState(request, IDLE);
  const errorOn = (field: string) => (state.status === "error" && state.field === field ? state.message : null);
  const homesWithRoom = targets.homes.filter((h) => h.nextPosition !== null);
  const mortgagees = targets.homes.flatMap((h) => h.mortgagees.map((m) => ({ ...m, policy: h.policyNumber })));
  const mortgageeOptions = mortgagees.map((m) => (
    <option key={m.key} value={m.key}>
      {POSITION_WORDS[m.position]} mortgagee on {m.policy}: {m.name ?? "unnamed"}
    </option>
  ));
  const lenderFields = (
    <>
      <Field label="Lender's name" name="name" error={errorOn("name")}>
        {(p) => <Input {...p} name="name" required maxLength={200} className="mt-1 block w-full" autoComplete="off" />}
      </Field>
      <Field
        label="Lender's mailing address"
        name="address"
        error={errorOn("address")}
        hint="Street, city, state and ZIP, as on the loan papers."
      >
        {(p) => (
          <Input {...p} name="address" required maxLength={300} className="mt-1 block w-full" autoComplete="off" />
        )}
      </Field>
      <Field label="Loan number (optional)" name="loanNumber" error={errorOn("loanNumber")}>
        {(p) => <Input {...p} name="loanNumber" maxLength={50} className="mt-1 block w-full" autoComplete="off" />}
      </Field>
    </>
  );

  return (
    <form
      action={action}
      // Submitted by hand once hydrated: React resets a form after an `action` submit, which would
      // empty what the agent typed when the request is refused.
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => action(data));
      }}
      className="space-y-3"
      aria-label="Ask the carrier for a change"
      data-testid="servicing-form"
    >
      <input type="hidden" name="pullId" value={pullId} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Change to ask for</legend>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          {actions.map((a) => (
            <label key={a} className="flex items-center gap-1.5">
              <input type="radio" name="actionType" value={a} checked={type === a} onChange={() => setType(a)} />
              {SERVICING_ACTION_LABELS[a]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid max-w-xl gap-3" key={type}>
        {type === "ADD_MORTGAGEE" ? (
          <>
            <Field label="Home policy" name="policy" error={errorOn("policy")}>
              {(p) => (
                <Select
                  {...p}
                  name="policy"
                  className="mt-1 block w-full"
                  defaultValue={homesWithRoom[0]?.policyNumber}
                >
                  {homesWithRoom.map((h) => (
                    <option key={h.policyNumber} value={h.policyNumber}>
                      {h.label} ({h.mortgagees.length === 0 ? "no mortgagee" : `${h.mortgagees.length} listed`})
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Position" name="position" error={errorOn("position")}>
              {(p) => (
                <Select
                  {...p}
                  name="position"
                  className="mt-1 block w-full"
                  defaultValue={homesWithRoom[0]?.nextPosition ?? "FIRST"}
                >
                  {MORTGAGEE_POSITIONS.map((position) => (
                    <option key={position} value={position}>
                      {POSITION_WORDS[position]} mortgagee
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {lenderFields}
          </>
        ) : null}
        {type === "EDIT_MORTGAGEE" ? (
          <>
            <Field label="Mortgagee to change" name="mortgagee" error={errorOn("mortgagee")}>
              {(p) => (
                <Select {...p} name="mortgagee" className="mt-1 block w-full">
                  {mortgageeOptions}
                </Select>
              )}
            </Field>
            {lenderFields}
          </>
        ) : null}
        {type === "REMOVE_MORTGAGEE" ? (
          <Field label="Mortgagee to remove" name="mortgagee" error={errorOn("mortgagee")}>
            {(p) => (
              <Select {...p} name="mortgagee" className="mt-1 block w-full">
                {mortgageeOptions}
              </Select>
            )}
          </Field>
        ) : null}
        {type === "ADD_VEHICLE" ? (
          <>
            <Field label="Auto policy" name="policy" error={errorOn("policy")}>
              {(p) => (
                <Select {...p} name="policy" className="mt-1 block w-full">
                  {targets.autos.map((a) => (
                    <option key={a.policyNumber} value={a.policyNumber}>
                      {a.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="VIN" name="vin" error={errorOn("vin")} hint="17 letters and digits, without I, O or Q.">
              {(p) => (
                <Input
                  {...p}
                  name="vin"
                  required
                  minLength={17}
                  maxLength={17}
                  className="mt-1 block w-full font-mono uppercase"
                  autoComplete="off"
                />
              )}
            </Field>
            <div className="grid grid-cols-3 gap-2">
              <Field label="Year" name="year" error={errorOn("year")}>
                {(p) => (
                  <Input {...p} name="year" required inputMode="numeric" maxLength={4} className="mt-1 block w-full" />
                )}
              </Field>
              <Field label="Make" name="make" error={errorOn("make")}>
                {(p) => <Input {...p} name="make" required maxLength={60} className="mt-1 block w-full" />}
              </Field>
              <Field label="Model" name="model" error={errorOn("model")}>
                {(p) => <Input {...p} name="model" required maxLength={60} className="mt-1 block w-full" />}
              </Field>
            </div>
          </>
        ) : null}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Sending…" : "Ask the carrier"}
        </Button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
