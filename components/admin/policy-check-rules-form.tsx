"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { DollarsField } from "./dollars-field";
import type { PolicyCheckForm } from "@/lib/policy-check/rules";
import type { FormAction } from "@/lib/core/form-state";
import { Textarea } from "@/components/ui/input";
import { ActionForm } from "@/components/ui/action-form";

// The team's policy-check rules as one form: switches, amounts in dollars (blank turns a rule
// off), and the lien holders a financed vehicle must name, one per line.

type Field =
  | { kind: "switch"; name: string; group: "vehicle" | "dwelling"; label: string }
  | { kind: "dollars" | "minimum" | "names"; name: string; label: string };

type Props = { fields: Field[]; values: PolicyCheckForm; action: FormAction };

const legend = "text-sm font-medium text-slate-900";

export function PolicyCheckRulesForm({ fields, values, action: save }: Props) {
  const switches = (group: "vehicle" | "dwelling") =>
    fields
      .filter((f): f is Extract<Field, { kind: "switch" }> => f.kind === "switch" && f.group === group)
      .map((f) => (
        <label key={f.name} className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={f.name} defaultChecked={values[f.name] === "on"} />
          {f.label}
        </label>
      ));
  return (
    <ActionForm
      action={save}
      className={cn(CARD_CLASS, "space-y-5 p-4")}
      aria-label="Policy check rules"
      submitLabel="Save at the service"
      pendingLabel="Saving…"
    >
      {({ state }) => {
        const wrong = state.status === "error" ? (state.field ?? "") : "";
        return (
          <>
            <fieldset className="grid max-w-2xl gap-2">
              <legend className={legend}>Vehicles</legend>
              {switches("vehicle")}
              {fields.map((f) =>
                f.kind === "dollars" ? (
                  <DollarsField
                    key={f.name}
                    name={f.name}
                    label={f.label}
                    value={values[f.name] ?? ""}
                    invalid={wrong === f.name}
                    placeholder="off"
                  />
                ) : f.kind === "minimum" ? (
                  <div key={f.name} className="grid gap-1">
                    <DollarsField
                      name={`${f.name}_PER_PERSON`}
                      label={`${f.label}, per person`}
                      value={values[`${f.name}_PER_PERSON`] ?? ""}
                      invalid={wrong === `${f.name}_PER_PERSON`}
                      placeholder="off"
                    />
                    <DollarsField
                      name={`${f.name}_PER_ACCIDENT`}
                      label={`${f.label}, per accident`}
                      value={values[`${f.name}_PER_ACCIDENT`] ?? ""}
                      invalid={wrong === `${f.name}_PER_ACCIDENT`}
                      placeholder="off"
                    />
                  </div>
                ) : f.kind === "names" ? (
                  <label key={f.name} className="grid gap-1 text-sm">
                    <span>{f.label} (one per line; empty turns the rule off)</span>
                    <Textarea
                      name={f.name}
                      rows={3}
                      defaultValue={values[f.name] ?? ""}
                      aria-invalid={wrong === f.name || undefined}
                      className="max-w-md"
                    />
                  </label>
                ) : null,
              )}
            </fieldset>
            <fieldset className="grid max-w-2xl gap-2">
              <legend className={legend}>Homes</legend>
              {switches("dwelling")}
            </fieldset>
          </>
        );
      }}
    </ActionForm>
  );
}
