"use client";

import { startTransition, useActionState, useId, useState } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { DPPA_PURPOSES, DPPA_PURPOSE_WORDS } from "@/lib/enrichment/purposes";
import { IDLE, type FormAction } from "@/lib/core/form-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

// One paid look-up, in two steps: the button opens the confirm step, which says the look-up is
// charged to the agency and, for a driver, asks the DPPA permissible purpose (and the date of
// birth when the carrier sent none). Only the confirm step sends `confirm=yes`; the server
// refuses a request without it. The kept answer is drawn by the server once the page revalidates.

type Props = {
  action: FormAction;
  pullId: string;
  kind: "PROPERTY_DATA" | "DRIVER_LICENSE" | "DRIVING_RECORD";
  subjectKey: string;
  /** "Look up property data", "Look up the driver licence"… */
  label: string;
  /** What is looked up, for the confirm step: "property data for 12 Elm St…". */
  about: string;
  /** A person look-up: the DPPA purpose is required. */
  askPurpose: boolean;
  /** The carrier sent no date of birth: ask for one ("required" for a licence). */
  askDateOfBirth: "no" | "required" | "optional";
  /** Asked before and failed: the button says so. */
  again?: boolean;
};

export function EnrichmentRequestForm(props: Props) {
  const { action: request, pullId, kind, subjectKey, label, about, askPurpose, askDateOfBirth, again } = props;
  const [state, action, pending] = useActionState(request, IDLE);
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const fieldError = (name: string) => state.status === "error" && state.field === name;

  if (!confirming)
    return (
      <div className="space-y-1">
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className="rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
          data-testid="enrichment-start"
        >
          {again ? `${label} again` : label}
        </button>
        <FormMessage state={state} />
      </div>
    );

  return (
    <form
      action={action}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => action(data));
      }}
      className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3"
      data-testid="enrichment-confirm"
    >
      <input type="hidden" name="pullId" value={pullId} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="subjectKey" value={subjectKey} />
      <input type="hidden" name="confirm" value="yes" />
      <p className="text-sm text-amber-900">
        This look-up of {about} is <strong>charged to the agency</strong> by the service. Its answer is kept on this
        account, so the same question is never paid for twice.
      </p>
      {askPurpose ? (
        <div>
          <label className="block text-sm text-slate-800" htmlFor={`${id}-purpose`}>
            Permissible purpose (required by the Driver&apos;s Privacy Protection Act)
          </label>
          <Select
            id={`${id}-purpose`}
            name="purpose"
            required
            defaultValue=""
            aria-invalid={fieldError("purpose") || undefined}
            className="mt-1 block w-full max-w-xl"
          >
            <option value="">Choose the purpose…</option>
            {DPPA_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {DPPA_PURPOSE_WORDS[purpose]}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      {askDateOfBirth !== "no" ? (
        <div>
          <label className="block text-sm text-slate-800" htmlFor={`${id}-dob`}>
            Date of birth (MM/DD/YYYY)
            {askDateOfBirth === "optional" ? ", or leave empty to use the licence on file" : ""}
          </label>
          <Input
            id={`${id}-dob`}
            name="dateOfBirth"
            inputMode="numeric"
            placeholder="MM/DD/YYYY"
            required={askDateOfBirth === "required"}
            autoComplete="off"
            aria-invalid={fieldError("dateOfBirth") || undefined}
            className="mt-1 block w-40"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Looking up…" : "Confirm the charge and look up"}
        </Button>
        <button
          type="button"
          disabled={pending}
          onClick={() => setConfirming(false)}
          className="text-sm text-slate-700 hover:underline"
        >
          Cancel
        </button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
