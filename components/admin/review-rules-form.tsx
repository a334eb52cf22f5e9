"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { DollarsField } from "./dollars-field";
import type { FormAction } from "@/lib/core/form-state";
import type { ReviewRulesPage } from "@/lib/loaders/review-rules";
import { Input } from "@/components/ui/input";
import { ActionForm } from "@/components/ui/action-form";

// The coverage review's rules, one form saved (and audited) as a whole: the floors and the
// ceiling in dollars, the coinsurance share, and which checks run.

type DollarRule = { name: keyof ReviewRulesPage["values"]; label: string };

/** The auto floors and ceiling, in the order the form asks for them. */
const AUTO_FLOORS: DollarRule[] = [
  { name: "bodilyInjuryPerPerson", label: "Bodily injury floor, per person" },
  { name: "bodilyInjuryPerAccident", label: "Bodily injury floor, per accident" },
  { name: "propertyDamage", label: "Property damage floor" },
  { name: "deductibleCeiling", label: "Deductible ceiling (comprehensive, collision)" },
];

type Props = {
  /** Thresholds in whole dollars, as the inputs show them. */
  values: ReviewRulesPage["values"];
  checks: ReviewRulesPage["checks"];
  action: FormAction;
};

const legend = "text-sm font-medium text-slate-900";

export function ReviewRulesForm({ values, checks, action: save }: Props) {
  return (
    <ActionForm
      action={save}
      className={cn(CARD_CLASS, "space-y-5 p-4")}
      aria-label="Review rules"
      submitLabel="Save the review rules"
      pendingLabel="Saving…"
    >
      {({ state }) => {
        // A refused field is named as its input is.
        const wrong = state.status === "error" ? (state.field ?? "") : "";
        return (
          <>
            <fieldset className="grid max-w-xl gap-2">
              <legend className={legend}>Auto</legend>
              {AUTO_FLOORS.map((field) => (
                <DollarsField
                  key={field.name}
                  required
                  {...field}
                  value={values[field.name]}
                  invalid={wrong === field.name}
                />
              ))}
            </fieldset>
            <fieldset className="grid max-w-xl gap-2">
              <legend className={legend}>Home</legend>
              <DollarsField
                required
                name="personalLiability"
                label="Personal liability floor"
                value={values.personalLiability}
                invalid={wrong === "personalLiability"}
              />
              <label className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span>Coverage A should reach this share of the replacement cost (coinsurance)</span>
                <span>
                  <Input
                    name="coinsurancePercent"
                    type="number"
                    min={50}
                    max={100}
                    required
                    defaultValue={values.coinsurancePercent}
                    aria-invalid={wrong === "coinsurancePercent" || undefined}
                    className="w-20"
                  />{" "}
                  %
                </span>
              </label>
            </fieldset>
            <fieldset>
              <legend className={legend}>Checks that run</legend>
              <p className="mt-1 text-sm text-slate-600">
                Policies expire &ldquo;soon&rdquo; within the renewal lead time set on the agency&apos;s rules page.
              </p>
              <div className="mt-2 grid gap-1.5 text-sm sm:grid-cols-2">
                {checks.map((check) => (
                  <label key={check.id} className="flex items-start gap-2">
                    <input type="checkbox" name="on" value={check.id} defaultChecked={check.on} className="mt-0.5" />
                    <span>{check.label}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          </>
        );
      }}
    </ActionForm>
  );
}
