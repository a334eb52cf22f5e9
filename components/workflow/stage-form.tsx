"use client";

import { useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import { PULL_STAGES } from "@/lib/core/pull-stages";
import { humanize } from "@/lib/format";
import { LOST_CATEGORIES, LOST_CATEGORY_LABELS } from "@/lib/workflow/lost-reasons";
import { usePullActions } from "./pull-actions";

// WORKING / WON / LOST. WON asks for the premium won (dollars and cents), LOST why (one of a
// short list), the carrier that won it and at what premium when known, and the agent's words. The stage the page showed travels with the form, so a change made meanwhile by
// someone else is refused instead of overwritten.

const STAGES = PULL_STAGES.map((value) => ({ value, label: humanize(value) }));

export function StageForm({ pullId, stage, wonPremium }: { pullId: string; stage: string; wonPremium: string }) {
  const { setStage } = usePullActions();
  const [chosen, setChosen] = useState(stage);

  return (
    <ActionForm
      action={setStage}
      // The radios must not go back to the old stage while "Won" is being saved.
      keepValues
      className="space-y-3"
      aria-label="Stage"
      submitLabel="Save stage"
      pendingLabel="Saving…"
      submitDisabled={chosen === stage && chosen !== "WON"}
    >
      {({ invalid }) => (
        <>
          <input type="hidden" name="pullId" value={pullId} />
          <input type="hidden" name="expectedStage" value={stage} />
          <fieldset>
            <legend className="text-xs font-medium tracking-wide text-slate-500 uppercase">Stage</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {STAGES.map((s) => (
                <label
                  key={s.value}
                  className={`cursor-pointer rounded-md border px-3 py-1.5 text-sm ${chosen === s.value ? "border-brand-600 bg-brand-50 text-brand-900" : "border-slate-300 bg-white"}`}
                >
                  <input
                    type="radio"
                    name="stage"
                    value={s.value}
                    checked={chosen === s.value}
                    onChange={() => setChosen(s.value)}
                    className="sr-only"
                  />
                  {s.label}
                </label>
              ))}
            </div>
          </fieldset>
          {chosen === "WON" ? (
            <label className="block text-sm">
              <span className="text-slate-700">Premium won (per year)</span>
              <span className="mt-1 flex items-center gap-1">
                <span aria-hidden="true" className="text-slate-500">
                  $
                </span>
                <Input
                  name="premium"
                  inputMode="decimal"
                  defaultValue={wonPremium}
                  placeholder="1,234.56"
                  {...invalid("premium")}
                  required
                  className="w-40"
                />
              </span>
            </label>
          ) : null}
          {chosen === "LOST" ? (
            <div className="space-y-2 text-sm">
              <fieldset>
                <legend className="text-slate-700">Why was it lost?</legend>
                <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
                  {LOST_CATEGORIES.map((category) => (
                    <label key={category} className="flex items-center gap-1">
                      <input type="radio" name="lostCategory" value={category} required />
                      {LOST_CATEGORY_LABELS[category]}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="flex flex-wrap gap-2">
                <label className="flex flex-col">
                  <span className="text-slate-700">Carrier that won it (if known)</span>
                  <Input name="lostToCarrier" maxLength={100} className="mt-1 w-48" />
                </label>
                <label className="flex flex-col">
                  <span className="text-slate-700">At what premium a year (if known)</span>
                  <Input
                    name="lostToPremium"
                    inputMode="decimal"
                    placeholder="1,234.56"
                    {...invalid("lostToPremium")}
                    className="mt-1 w-40"
                  />
                </label>
              </div>
              <label className="block">
                <span className="text-slate-700">In your words (optional)</span>
                <Input name="lostReason" maxLength={500} className="mt-1 w-full" />
              </label>
            </div>
          ) : null}
        </>
      )}
    </ActionForm>
  );
}
