"use client";

import { useId, useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import type { ServicingActionType } from "@/lib/service/schemas";
import type { ServicingTargets } from "@/lib/servicing/payloads";
import { MORTGAGEE_POSITIONS, SERVICING_ACTION_LABELS } from "@/lib/servicing/words";
import type { FormAction } from "@/lib/core/form-state";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Field } from "@/components/ui/field";

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

export function ServicingRequestForm({ pullId, actions, targets, action: request }: Props) {
  const [type, setType] = useState<ServicingActionType>(actions[0] ?? "ADD_MORTGAGEE");
  const formId = useId();
  const homesWithRoom = targets.homes.filter((h) => h.nextPosition !== null);
  const mortgagees = targets.homes.flatMap((h) => h.mortgagees.map((m) => ({ ...m, policy: h.policyNumber })));
  const mortgageeOptions = mortgagees.map((m) => (
    <option key={m.key} value={m.key}>
      {POSITION_WORDS[m.position]} mortgagee on {m.policy}: {m.name ?? "unnamed"}
    </option>
  ));
  const lenderFields = (refused: (field: string) => boolean) => (
    <>
      <Field id={`${formId}-name`} label="Lender's name" invalid={refused("name")}>
        {(p) => <Input {...p} name="name" required maxLength={200} className="mt-1 block w-full" autoComplete="off" />}
      </Field>
      <Field
        id={`${formId}-address`}
        label="Lender's mailing address"
        invalid={refused("address")}
        hint="Street, city, state and ZIP, as on the loan papers."
      >
        {(p) => (
          <Input {...p} name="address" required maxLength={300} className="mt-1 block w-full" autoComplete="off" />
        )}
      </Field>
      <Field id={`${formId}-loanNumber`} label="Loan number (optional)" invalid={refused("loanNumber")}>
        {(p) => <Input {...p} name="loanNumber" maxLength={50} className="mt-1 block w-full" autoComplete="off" />}
      </Field>
    </>
  );

  return (
    <ActionForm
      action={request}
      // What the agent typed stays when the request is refused.
      keepValues
      className="space-y-3"
      aria-label="Ask the carrier for a change"
      data-testid="servicing-form"
      submitLabel="Ask the carrier"
      pendingLabel="Sending…"
    >
      {({ state }) => {
        const refused = (field: string) => state.status === "error" && state.field === field;
        return (
          <>
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
                  <Field id={`${formId}-policy`} label="Home policy" invalid={refused("policy")}>
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
                  <Field id={`${formId}-position`} label="Position" invalid={refused("position")}>
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
                  {lenderFields(refused)}
                </>
              ) : null}
              {type === "EDIT_MORTGAGEE" ? (
                <>
                  <Field id={`${formId}-mortgagee`} label="Mortgagee to change" invalid={refused("mortgagee")}>
                    {(p) => (
                      <Select {...p} name="mortgagee" className="mt-1 block w-full">
                        {mortgageeOptions}
                      </Select>
                    )}
                  </Field>
                  {lenderFields(refused)}
                </>
              ) : null}
              {type === "REMOVE_MORTGAGEE" ? (
                <Field id={`${formId}-mortgagee`} label="Mortgagee to remove" invalid={refused("mortgagee")}>
                  {(p) => (
                    <Select {...p} name="mortgagee" className="mt-1 block w-full">
                      {mortgageeOptions}
                    </Select>
                  )}
                </Field>
              ) : null}
              {type === "ADD_VEHICLE" ? (
                <>
                  <Field id={`${formId}-policy`} label="Auto policy" invalid={refused("policy")}>
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
                  <Field
                    id={`${formId}-vin`}
                    label="VIN"
                    invalid={refused("vin")}
                    hint="17 letters and digits, without I, O or Q."
                  >
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
                    <Field id={`${formId}-year`} label="Year" invalid={refused("year")}>
                      {(p) => (
                        <Input
                          {...p}
                          name="year"
                          required
                          inputMode="numeric"
                          maxLength={4}
                          className="mt-1 block w-full"
                        />
                      )}
                    </Field>
                    <Field id={`${formId}-make`} label="Make" invalid={refused("make")}>
                      {(p) => <Input {...p} name="make" required maxLength={60} className="mt-1 block w-full" />}
                    </Field>
                    <Field id={`${formId}-model`} label="Model" invalid={refused("model")}>
                      {(p) => <Input {...p} name="model" required maxLength={60} className="mt-1 block w-full" />}
                    </Field>
                  </div>
                </>
              ) : null}
            </div>
          </>
        );
      }}
    </ActionForm>
  );
}
